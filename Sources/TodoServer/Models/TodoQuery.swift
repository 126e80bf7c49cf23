import Foundation

/// What a `GET /todos` asks for, read from its query string.
///
/// Served, from json-server: `field=value` (repeat for "any of"), `q=`,
/// `_sort=a,-b` (and v0.17's `_order=asc|desc`), `_page` with `_limit`
/// (v0.17: a bare array) or `_per_page` (v1: an envelope), and `_limit` alone.
/// Added for sync: `_since=CURSOR`. Any other parameter starting with `_`
/// is refused with 400 rather than silently ignored.
public struct TodoQuery: Sendable, Equatable {
    public struct Sort: Sendable, Equatable {
        public let field: String
        public let descending: Bool
    }

    public enum Paging: Sendable, Equatable {
        case all
        /// The first `limit` matches.
        case limit(Int)
        /// Page `page` (from 1) of `size`; `envelope` for json-server v1's `_per_page` shape.
        case page(Int, size: Int, envelope: Bool)
    }

    /// Field name to the values any of which it may have.
    public var filters: [(field: String, values: [String])] = []
    /// Lowercased; matched against every string field.
    public var search: String?
    public var sort: [Sort] = []
    public var paging: Paging = .all
    /// Set for the change feed; then no other parameter but `_limit` is allowed.
    public var since: Int?

    /// json-server's page size when none is given.
    public static let defaultPageSize = 10
    public static let maxPageSize = 10_000
    /// Highest `_page`: with the largest page size its offset still fits in 64 bits.
    public static let maxPage = 1_000_000_000

    // Each limit below bounds the SQL a query builds: every sort field and
    // filter field is a JSON lookup on every row, and SQLite refuses an
    // expression tree over 1,000 deep or an ORDER BY over 64 terms with an error.

    /// Query parameters in one request.
    public static let maxParameters = 100
    /// Fields in `_sort`.
    public static let maxSortFields = 8
    /// Distinct fields filtered on (`field=value`; repeating one adds a value, not a field).
    public static let maxFilterFields = 16

    public init() {}

    public static func == (lhs: TodoQuery, rhs: TodoQuery) -> Bool {
        lhs.filters.map { "\($0.field)=\($0.values)" } == rhs.filters.map { "\($0.field)=\($0.values)" }
            && lhs.search == rhs.search && lhs.sort == rhs.sort && lhs.paging == rhs.paging && lhs.since == rhs.since
    }

    /// Reads a raw query string (`a=1&b=2`), percent-decoding keys and values
    /// and reading `+` as a space, as browsers send forms.
    public init(query: String?) throws(ServerError) {
        self.init()
        var page: Int?
        var limit: Int?
        var perPage: Int?
        var order: String?
        var filterOrder: [String] = []
        var filterValues: [String: [String]] = [:]
        let pairs = try Self.pairs(query ?? "")
        guard pairs.count <= Self.maxParameters else {
            throw .badRequest("The query has \(pairs.count) parameters; at most \(Self.maxParameters) are allowed.")
        }
        for (name, value) in pairs {
            switch name {
            case "q": search = value.lowercased()
            case "_sort": sort = try Self.sortFields(value)
            case "_order": order = value.lowercased()
            case "_page": page = try Self.positive(name, value)
            case "_limit": limit = try Self.positive(name, value)
            case "_per_page": perPage = try Self.positive(name, value)
            case "_since":
                guard let cursor = Int(value), cursor >= 0 else {
                    throw .badRequest("_since must be a cursor from an earlier response (a whole number), not \(value.debugDescription).")
                }
                since = cursor
            case _ where name.hasPrefix("_"):
                throw .badRequest("Query parameter \(name) is not supported; see the server's documentation for the ones that are.")
            default:
                try Self.checkFieldName(name)
                if filterValues[name] == nil { filterOrder.append(name) }
                filterValues[name, default: []].append(value)
            }
        }
        guard filterOrder.count <= Self.maxFilterFields else {
            throw .badRequest("The query filters on \(filterOrder.count) fields; at most \(Self.maxFilterFields) are allowed.")
        }
        filters = filterOrder.map { ($0, filterValues[$0] ?? []) }
        if let order {
            guard order == "asc" || order == "desc" else {
                throw .badRequest("_order must be asc or desc.")
            }
            sort = sort.map { Sort(field: $0.field, descending: order == "desc") }
        }
        if since != nil {
            guard filters.isEmpty, search == nil, sort.isEmpty, page == nil, perPage == nil else {
                throw .badRequest("_since cannot be combined with filters, sorting or paging; only _limit.")
            }
        }
        if let page {
            paging = .page(page, size: perPage ?? limit ?? Self.defaultPageSize, envelope: perPage != nil)
        } else if let limit {
            paging = .limit(limit)
        } else if perPage != nil {
            throw .badRequest("_per_page needs _page.")
        }
    }

    /// The decoded pairs; 400 for a NUL, which SQLite would cut a value at.
    private static func pairs(_ query: String) throws(ServerError) -> [(String, String)] {
        try query.split(separator: "&").map { (part) throws(ServerError) -> (String, String) in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) throws(ServerError) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                let decoded = spaced.removingPercentEncoding ?? spaced
                guard !decoded.utf8.contains(0) else {
                    throw .badRequest("Query parameters may not contain the character NUL (%00).")
                }
                return decoded
            }
            return (try decode(pieces[0]), pieces.count > 1 ? try decode(pieces[1]) : "")
        }
    }

    /// A whole number from 1 to the parameter's maximum, checked before any
    /// arithmetic is done with it: `_page` becomes an offset by multiplying.
    private static func positive(_ name: String, _ value: String) throws(ServerError) -> Int {
        let maximum = name == "_page" ? maxPage : maxPageSize
        guard let number = Int(value), number > 0, number <= maximum else {
            throw .badRequest("\(name) must be a whole number from 1 to \(maximum), not \(value.debugDescription).")
        }
        return number
    }

    private static func sortFields(_ value: String) throws(ServerError) -> [Sort] {
        let parts = value.split(separator: ",")
        guard parts.count <= maxSortFields else {
            throw .badRequest("_sort names \(parts.count) fields; at most \(maxSortFields) are allowed.")
        }
        return try parts.map { (part) throws(ServerError) -> Sort in
            let descending = part.hasPrefix("-")
            let field = String(descending ? part.dropFirst() : part)
            try checkFieldName(field)
            return Sort(field: field, descending: descending)
        }
    }

    /// Field names end up in a JSON path: letters, digits, `_` and `-` only.
    static func checkFieldName(_ name: String) throws(ServerError) {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
        guard !name.isEmpty, allowed else {
            throw .badRequest("\(name.debugDescription) is not a field name the server can filter or sort by (letters, digits, _ and - only).")
        }
    }
}
