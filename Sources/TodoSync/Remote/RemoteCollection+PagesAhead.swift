import Foundation

// MARK: - Reading announced pages ahead
// A server that pages and says how many pages it has lets the URLs of all
// of them be told from the first: json-server 0.17's `Link` header names
// `next` and `last`, which differ only in the page number; json-server 1.0's
// envelope gives `next` and `last` as numbers. Those pages are fetched
// several at a time while earlier ones are read, but the walk in `fetchAll`
// still decides, page by page, where the list goes on: a prefetched page is
// used only when the walk leads to exactly its URL, so the listing is the
// one a page-by-page walk reads (`PagesAheadTests` compares the two).

extension RemoteCollection {
    /// How many announced pages are fetched ahead of the one being read.
    static let pagesAhead = 8

    /// The URLs of the pages from `next` to the last one the first page
    /// announced, in order; empty when they cannot be told in advance.
    func announcedPages(after page: Page, response: HTTPResponseData, paging: ListPaging?, next: String) -> [String] {
        if let link = response.headers["link"] {
            guard let nextTarget = Self.linkTarget(link, relation: "next"), resolve(nextTarget) == next,
                  let lastTarget = Self.linkTarget(link, relation: "last")
            else { return [] }
            return Self.countingURLs(from: next, to: resolve(lastTarget))
        }
        guard case let .number(first)? = page.next, let last = page.last, first <= last,
              last - first < Self.maximumPages
        else { return [] }
        let urls = (first...last).map { number in
            paging.map { pageURL($0, number) } ?? collectionURL + "?_page=\(number)"
        }
        return urls.first == next ? urls : []
    }

    /// The URLs from `first` to `last` when the two differ in one query
    /// value only, an integer that counts up: `?_page=2&_limit=10` to
    /// `?_page=5&_limit=10` gives pages 2, 3, 4 and 5.
    static func countingURLs(from first: String, to last: String) -> [String] {
        if first == last { return [first] }
        let firstParts = first.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let lastParts = last.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard firstParts.count == 2, lastParts.count == 2, firstParts[0] == lastParts[0] else { return [] }
        let firstQuery = firstParts[1].split(separator: "&", omittingEmptySubsequences: false)
        let lastQuery = lastParts[1].split(separator: "&", omittingEmptySubsequences: false)
        guard firstQuery.count == lastQuery.count else { return [] }
        let differing = firstQuery.indices.filter { firstQuery[$0] != lastQuery[$0] }
        guard differing.count == 1, let index = differing.first else { return [] }
        let from = firstQuery[index].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let to = lastQuery[index].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard from.count == 2, to.count == 2, from[0] == to[0],
              let start = Int(from[1]), let end = Int(to[1]), String(start) == from[1], String(end) == to[1],
              start <= end, end - start < maximumPages
        else { return [] }
        return (start...end).map { number in
            var query = firstQuery.map(String.init)
            query[index] = "\(from[0])=\(number)"
            return "\(firstParts[0])?" + query.joined(separator: "&")
        }
    }

    /// The target of a relation (`next`, `last`) in a `Link` header, as RFC 8288 writes it.
    static func linkTarget(_ header: String, relation: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let relations = pieces.dropFirst().filter { $0.lowercased().hasPrefix("rel=") }
                .flatMap { $0.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased().split(separator: " ") }
            if relations.contains(Substring(relation)) { return String(target.dropFirst().dropLast()) }
        }
        return nil
    }
}

/// Pages fetched ahead of their turn, `width` requests at a time.
struct PagesAhead {
    private var waiting: ArraySlice<String> = []
    private var running: [(url: String, response: Task<HTTPResponseData, any Error>)] = []
    private var width = 0
    private var fetch: (@Sendable (String) async throws -> HTTPResponseData)?

    /// Starts fetching `urls`, in order, up to `width` at once.
    mutating func start(_ urls: [String], width: Int, fetch: @escaping @Sendable (String) async throws -> HTTPResponseData) {
        cancel()
        waiting = urls[...]
        self.width = width
        self.fetch = fetch
        refill()
    }

    /// The response of `url` if it is the next page fetched ahead; nil if
    /// it is not, and then nothing more is fetched ahead.
    mutating func take(_ url: String) async throws -> HTTPResponseData? {
        guard let first = running.first else { return nil }
        guard first.url == url else {
            cancel()
            return nil
        }
        running.removeFirst()
        refill()
        return try await first.response.value
    }

    mutating func cancel() {
        for page in running { page.response.cancel() }
        running = []
        waiting = []
    }

    private mutating func refill() {
        guard let fetch else { return }
        while running.count < width, let url = waiting.popFirst() {
            running.append((url, Task { try await fetch(url) }))
        }
    }
}
