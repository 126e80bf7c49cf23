import Foundation
import TodoCore

// MARK: - Reading the whole list
// A server may answer `GET /todos` with only part of its list. Sync reads
// every page the server announces (json-server 0.17's `Link: rel="next"`,
// json-server 1.0's `{first, prev, next, last, pages, items, data}` envelope)
// or the user named (`--page-param`), and refuses a list shorter than the
// `X-Total-Count` that came with it. It never sends a paging parameter the
// server has not shown it understands: several servers answer one they do
// not know with `[]`.

extension RemoteCollection {
    /// Every page of the list, as one listing. Given the digest of the list
    /// the last sync left the bases holding, a list of one page that has it
    /// still is not read item by item: the listing says `unchanged`.
    public func fetchAll(unlessDigest stored: String? = nil) async throws -> Listing {
        let request = "GET \(configuration.collectionPath)"
        let paging = configuration.paging
        var number = paging?.firstPage ?? 0
        var url = paging.map { pageURL($0, number) } ?? collectionURL
        var listing = Listing()
        listing.digest.add(configuration.names, configuration.paging)
        var announced: Int?
        // Ids read so far: a page that brings none is where paging ends.
        var seen: Set<String>?
        var largestPage = 0
        // Pages the first one announced, fetched a few at a time ahead of
        // their turn; each is used only if the walk below leads to it.
        var ahead = PagesAhead()
        defer { ahead.cancel() }
        while true {
            let fetched = try await ahead.take(url)
            let response = if let fetched { fetched } else { try await send("GET", url) }
            listing.pages += 1
            listing.digest.add(response.body)
            // What says how much there is counts as much as the items.
            listing.digest.add(Array("\(response.headers["x-total-count"] ?? "")|\(response.headers["link"] ?? "")".utf8))
            if listing.pages == 1, let stored, stored == listing.digest.text, paging == nil,
               response.headers["link"] == nil, Self.isBareArray(response.body) {
                listing.unchanged = true
                listing.cursor = response.headers["x-cursor"]
                listing.closesConnections = response.headers["connection"]?.lowercased() == "close"
                return listing
            }
            let page = try Self.readPage(response, names: configuration.names, request: request)
            if listing.pages == 1 {
                listing.cursor = response.headers["x-cursor"]
                listing.closesConnections = response.headers["connection"]?.lowercased() == "close"
                announced = page.total ?? response.headers["x-total-count"].flatMap { Int($0) }
            }
            let next = try nextPage(after: page, response: response, paging: paging, number: number + 1, largest: largestPage)
            if listing.pages == 1, let next, !listing.closesConnections {
                let urls = announcedPages(after: page, response: response, paging: paging, next: next)
                ahead.start(urls, width: Self.pagesAhead) { [self] url in try await send("GET", url) }
            }
            if next != nil, seen == nil { seen = Set(listing.items.map(\.id)) }
            var fresh = 0
            for value in page.items {
                guard let item = value else {
                    // Unreadable means no usable id: nothing names it but its place.
                    listing.hasUnidentified = true
                    listing.skipped.append("item #\(listing.items.count + listing.skipped.count + 1)")
                    continue
                }
                if seen?.insert(item.id).inserted == false { continue }
                listing.items.append(item)
                fresh += 1
            }
            largestPage = max(largestPage, page.items.count)
            // A page with nothing new: the server ignores the page asked for, or the list ended.
            guard let next, fresh > 0, listing.pages < Self.maximumPages else { break }
            url = next
            number += 1
        }
        if let announced, announced > listing.items.count + listing.skipped.count {
            throw SyncError.listShorterThanTotal(listed: listing.items.count + listing.skipped.count, total: announced)
        }
        return listing
    }

    /// Whether a body is a JSON array (not an envelope): its first byte past white space is `[`.
    static func isBareArray(_ body: [UInt8]) -> Bool {
        body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == UInt8(ascii: "[")
    }

    /// More pages than any list of todos needs: a server whose `next` never ends stops here.
    static let maximumPages = 100_000

    /// The URL of the page after this one, or nil if this was the last.
    func nextPage(after page: Page, response: HTTPResponseData, paging: ListPaging?, number: Int, largest: Int) throws -> String? {
        if let link = response.headers["link"].flatMap(Self.nextLink) {
            return resolve(link)
        }
        switch page.next {
        case let .url(link)?:
            return resolve(link)
        case let .number(next)?:
            if let paging { return pageURL(paging, next) }
            guard page.isJSONServerEnvelope else { throw SyncError.unknownPaging(request: "GET \(configuration.collectionPath)") }
            // The server's own page size: the one the first page came in.
            return collectionURL + "?_page=\(next)"
        case nil:
            break
        }
        // Pages the user named: on until a page is empty, or shorter than
        // an earlier one (a server may cap the size asked for).
        guard let paging, !page.items.isEmpty, page.items.count >= largest else { return nil }
        return pageURL(paging, number)
    }

    func pageURL(_ paging: ListPaging, _ number: Int) -> String {
        let page = paging.pageParam.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? paging.pageParam
        let size = paging.sizeParam.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? paging.sizeParam
        return collectionURL + "?\(page)=\(number)&\(size)=\(paging.pageSize)"
    }

    /// A link from the server, made absolute against the server's URL.
    func resolve(_ link: String) -> String {
        if link.hasPrefix("http://") || link.hasPrefix("https://") { return link }
        if link.hasPrefix("/") { return configuration.origin + link }
        if link.hasPrefix("?") { return collectionURL + link }
        return collectionURL + "/" + link
    }

    /// The target of `rel="next"` in a `Link` header.
    static func nextLink(_ header: String) -> String? {
        linkTarget(header, relation: "next")
    }

    /// One page of a list: a bare array, or an envelope holding one.
    struct Page {
        enum Next: Equatable { case number(Int), url(String) }

        var items: [RemoteTodo?]
        var next: Next?
        /// The total the envelope announces.
        var total: Int?
        /// json-server 1.0's shape, which pages by `_page` and `_per_page`.
        var isJSONServerEnvelope = false
        /// The envelope's number of its last page.
        var last: Int?
    }

    static func readPage(_ response: HTTPResponseData, names: FieldNames, request: String) throws -> Page {
        // The usual list is scanned in one pass; anything unusual is parsed whole.
        if let items = RemoteListScanner.items(in: response.body, names: names) {
            return Page(items: items)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(response.body)
        } catch {
            let reason = response.body.isEmpty ? "empty body" : "not complete JSON: \(excerpt(response))"
            throw SyncError.malformed(request: request, reason: reason)
        }
        switch value {
        case let .array(elements):
            return Page(items: elements.map { RemoteTodo(json: $0, names: names) })
        case let .object(object):
            guard case let .array(elements)? = object["data"] else {
                throw SyncError.malformed(request: request, reason: "not a JSON array")
            }
            var page = Page(items: elements.map { RemoteTodo(json: $0, names: names) })
            switch object["next"] {
            case let .integer(number)?: page.next = .number(Int(number))
            case let .string(link)? where !link.isEmpty: page.next = .url(link)
            default: break
            }
            if case let .integer(total)? = object["items"] { page.total = Int(total) }
            if case let .integer(last)? = object["last"] { page.last = Int(last) }
            page.isJSONServerEnvelope = ["first", "last", "pages", "items"].allSatisfy { object[$0] != nil }
            return page
        default:
            throw SyncError.malformed(request: request, reason: "not a JSON array")
        }
    }
}

/// A 64-bit FNV-1a digest of a list's pages and of what sync reads them with:
/// the same digest twice means the same list, read the same way.
public struct ListDigest: Sendable, Hashable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    mutating func add(_ bytes: [UInt8]) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        // A separator, so page boundaries count.
        value = (hash ^ 0xff) &* 0x100_0000_01b3
    }

    mutating func add(_ names: FieldNames, _ paging: ListPaging?) {
        add(Array("\(names)|\(String(describing: paging))".utf8))
    }

    public var text: String { String(value, radix: 16) }
}
