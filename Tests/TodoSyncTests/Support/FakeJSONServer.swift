import Foundation
import TestSupport
import TodoSync

/// A json-server in memory, behind the transport protocol: v1 (random string
/// ids, client ids ignored, DELETE returns the item) or v0.17 (numeric ids,
/// a client id kept if free, 500 on a taken one). Neither has ETags or a feed.
actor FakeJSONServer: HTTPTransport {
    enum Flavor: Sendable { case v1, v017 }

    /// How `GET /todos` pages its answer, as servers that page by default do
    /// (items sorted by id, pages of `size`).
    enum Paging: Sendable, Equatable {
        case none
        /// json-server 0.17: `_page` from 1 and `_limit`, `Link` and `X-Total-Count` headers.
        case link(size: Int)
        /// json-server 1.0: `_page` from 1 and `_per_page`, an envelope.
        case envelope(size: Int)
        /// The first page only, unless asked with `page` (from 0) and `size`, capped at `size`.
        case silent(size: Int)
        /// Like `silent`, but announcing the total in `X-Total-Count`.
        case counted(size: Int)
    }

    let flavor: Flavor
    let paging: Paging
    private(set) var items: [[String: JSONValue]] = []
    private var random: SeededRandom
    private var nextNumber: Int64 = 1
    /// Chance, from 0 to 1, that a request meets a fault.
    var faultRate = 0.0
    /// Chance that a list answer leaves out a random part of the list.
    var partialRate = 0.0
    /// Whether every response says `Connection: close`.
    var closesConnections = false
    /// A pause in every request, so that requests sent together overlap here.
    var delay: Duration = .zero
    /// Pages whose `next` skips a page (paging `.link` and `.envelope`), as a
    /// server whose list changed between two pages might answer.
    var nextSkipsAfter: Set<Int> = []
    /// Pauses between writing a create and answering it, the first create's
    /// first: later ones, answered sooner, come back out of the order written.
    var createAnswerPauses: [Duration] = []
    private var creates = 0
    private(set) var requests = 0
    private(set) var log: [String] = []
    private(set) var inFlight = 0
    private(set) var mostInFlight = 0

    init(_ flavor: Flavor, seed: UInt64 = 1, paging: Paging = .none) {
        self.flavor = flavor
        self.paging = paging
        random = SeededRandom(seed: seed)
    }

    func setFaultRate(_ rate: Double) { faultRate = rate }
    func setPartialRate(_ rate: Double) { partialRate = rate }
    func setClosesConnections(_ closes: Bool) { closesConnections = closes }
    func setDelay(_ pause: Duration) { delay = pause }
    func setCreateAnswerPauses(_ pauses: [Duration]) { createAnswerPauses = pauses }

    // MARK: Persisting late
    // A server that writes its file a moment after it answers (json-server
    // writes db.json after the response): a restart loses what came since.

    /// What a restart comes back with; nil: every write is kept at once.
    private var persisted: (items: [[String: JSONValue]], nextNumber: Int64)?

    /// The server's file catches up with every write so far.
    func persist() {
        persisted = (items, nextNumber)
    }

    /// A restart: writes not yet durable are gone.
    func restart() {
        guard let persisted else { return }
        (items, nextNumber) = persisted
    }
    func setNextSkips(after pages: Set<Int>) { nextSkipsAfter = pages }

    func insert(_ object: [String: JSONValue]) { items.append(object) }

    /// Removes an item, as another client would.
    func remove(id: String) { items.removeAll { $0["id"].flatMap(Self.text) == id } }

    /// Changes an item's fields, as another client would.
    func change(id: String, _ fields: [String: JSONValue]) {
        guard let index = items.firstIndex(where: { $0["id"].flatMap(Self.text) == id }) else { return }
        for (key, value) in fields { items[index][key] = value }
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        requests += 1
        log.append("\(request.method) \(request.url.replacingOccurrences(of: "http://fake", with: ""))")
        inFlight += 1
        mostInFlight = max(mostInFlight, inFlight)
        defer { inFlight -= 1 }
        if delay > .zero { try await Task.sleep(for: delay) }
        let fault = faultRate > 0 && random.chance(faultRate) ? random.next() % 5 : nil
        switch fault {
        case 0?: throw TransportError(.timeout, "fake")
        case 1?: return HTTPResponseData(status: 500, body: Array("<html>Internal Server Error</html>".utf8))
        case 2? where request.method == "GET": return HTTPResponseData(status: 200, body: Array("[]".utf8))
        case 3? where request.method == "GET": return HTTPResponseData(status: 200, body: Array(respond(request).body.prefix(10)))
        default: break
        }
        var response = respond(request)
        if request.method == "POST", response.status == 201 {
            creates += 1
            if creates <= createAnswerPauses.count { try await Task.sleep(for: createAnswerPauses[creates - 1]) }
        }
        if fault == 4 { throw TransportError(.connectionClosed, "fake, after applying") }
        if closesConnections { response.headers["connection"] = "close" }
        return response
    }

    private func respond(_ request: HTTPRequestData) -> HTTPResponseData {
        let (path, query) = Self.split(request.url.replacingOccurrences(of: "http://fake", with: ""))
        let parts = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        let body = request.body.flatMap { try? JSONValue.parse($0) }
        guard parts.first == "todos" else { return notFound }
        if parts.count == 1 {
            switch request.method {
            case "GET":
                // Fields as filters (`?clientId=…`), as json-server takes them.
                var listed = items.filter { item in
                    Self.filters(request.url).allSatisfy { key, value in item[key].flatMap(Self.text) == value }
                }
                if partialRate > 0, random.chance(partialRate), !listed.isEmpty {
                    // Some servers answer from a stale cache, or filter: a part of the list.
                    listed = listed.filter { _ in random.next() % 3 != 0 }
                }
                return list(listed, query: query)
            case "POST":
                guard case var .object(object)? = body else { return HTTPResponseData(status: 400) }
                return create(&object)
            default: return HTTPResponseData(status: 404)
            }
        }
        guard let index = items.firstIndex(where: { $0["id"].flatMap(Self.text) == parts[1] }) else { return notFound }
        switch request.method {
        case "GET": return json(200, .object(items[index]))
        case "PATCH":
            guard case let .object(changes)? = body else { return HTTPResponseData(status: 400) }
            for (key, value) in changes where key != "id" { items[index][key] = value }
            return json(200, .object(items[index]))
        case "DELETE":
            let removed = items.remove(at: index)
            return flavor == .v1 ? json(200, .object(removed)) : json(200, .object([:]))
        default: return HTTPResponseData(status: 404)
        }
    }

    private func create(_ object: inout [String: JSONValue]) -> HTTPResponseData {
        switch flavor {
        case .v1:
            object["id"] = .string(random.word(11))
        case .v017:
            if let id = object["id"] {
                if items.contains(where: { $0["id"] == id }) { return HTTPResponseData(status: 500, body: Array("Error: Insert failed, duplicate id".utf8)) }
            } else {
                object["id"] = .integer(nextNumber)
                nextNumber += 1
            }
        }
        items.append(object)
        return json(201, .object(object))
    }

    /// One page of the list, as `paging` answers it.
    private func list(_ listed: [[String: JSONValue]], query: [String: Int]) -> HTTPResponseData {
        let sorted = paging == .none ? listed : listed.sorted { ($0["id"].flatMap(Self.text) ?? "") < ($1["id"].flatMap(Self.text) ?? "") }
        func slice(_ page: Int, _ size: Int) -> [JSONValue] {
            Array(sorted.dropFirst(max(page, 0) * size).prefix(size)).map(JSONValue.object)
        }
        switch paging {
        case .none:
            return json(200, .array(sorted.map(JSONValue.object)))
        case let .link(size):
            let limit = query["_limit"] ?? size, page = max(query["_page"] ?? 1, 1)
            let pages = max((sorted.count + limit - 1) / limit, 1)
            var response = json(200, .array(slice(page - 1, limit)))
            response.headers["x-total-count"] = String(sorted.count)
            let next = page + (nextSkipsAfter.contains(page) ? 2 : 1)
            if next <= pages { response.headers["link"] = #"</todos?_page=\#(next)&_limit=\#(limit)>; rel="next", </todos?_page=\#(pages)&_limit=\#(limit)>; rel="last""# }
            return response
        case let .envelope(size):
            let perPage = query["_per_page"] ?? size, page = max(query["_page"] ?? 1, 1)
            let pages = max((sorted.count + perPage - 1) / perPage, 1)
            return json(200, .object([
                "first": .integer(1), "prev": page > 1 ? .integer(Int64(page - 1)) : .null,
                "next": page + (nextSkipsAfter.contains(page) ? 2 : 1) <= pages
                    ? .integer(Int64(page + (nextSkipsAfter.contains(page) ? 2 : 1))) : .null,
                "last": .integer(Int64(pages)),
                "pages": .integer(Int64(pages)), "items": .integer(Int64(sorted.count)), "data": .array(slice(page - 1, perPage)),
            ]))
        case let .silent(size), let .counted(size):
            let perPage = min(query["size"] ?? size, size)
            var response = json(200, .array(slice(query["page"] ?? 0, perPage)))
            if case .counted = paging { response.headers["x-total-count"] = String(sorted.count) }
            return response
        }
    }

    /// The query's parameters that are not paging ones: fields to filter by.
    static func filters(_ url: String) -> [String: String] {
        var filters: [String: String] = [:]
        for pair in url.split(separator: "?", maxSplits: 1).dropFirst().first?.split(separator: "&") ?? [] {
            let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if halves.count == 2, !halves[0].hasPrefix("_"), !["page", "size"].contains(halves[0]) { filters[halves[0]] = halves[1] }
        }
        return filters
    }

    /// A path and its query's integer parameters.
    static func split(_ url: String) -> (String, [String: Int]) {
        let pieces = url.split(separator: "?", maxSplits: 1)
        var query: [String: Int] = [:]
        for pair in pieces.dropFirst().first?.split(separator: "&") ?? [] {
            let halves = pair.split(separator: "=", maxSplits: 1)
            if halves.count == 2, let value = Int(halves[1]) { query[String(halves[0])] = value }
        }
        return (String(pieces.first ?? ""), query)
    }

    private var notFound: HTTPResponseData {
        flavor == .v1 ? json(404, .object(["error": .string("Not Found")])) : json(404, .object([:]))
    }

    private func json(_ status: Int, _ value: JSONValue) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: ["Content-Type": "application/json"], body: value.bytes)
    }

    static func text(_ value: JSONValue) -> String? {
        switch value {
        case let .string(text): text
        case let .integer(number): String(number)
        default: nil
        }
    }
}

/// The sync suites' draws on the shared generator (`TestSupport`).
extension SeededRandom {
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() % 1_000_000) / 1_000_000 < probability
    }

    mutating func word(_ length: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in letters[Int(next() % UInt64(letters.count))] })
    }
}
