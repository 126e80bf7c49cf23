import Foundation
import Testing
import TodoCore
@testable import TodoSync

/// Pages a server announced are fetched several at a time ahead of their
/// turn; the listing must be exactly the one read page by page.
@Suite("Pages read ahead equal pages read one by one")
struct PagesAheadTests {
    static func server(_ paging: FakeJSONServer.Paging, items: Int, skips: Set<Int>, closes: Bool) async -> FakeJSONServer {
        let server = FakeJSONServer(.v1, paging: paging)
        for index in 0..<items {
            await server.insert(["id": .string(String(format: "t%04d", index)), "title": .string("todo \(index)"), "completed": .bool(false)])
        }
        await server.setDelay(.milliseconds(1))
        await server.setNextSkips(after: skips)
        await server.setClosesConnections(closes)
        return server
    }

    static func listing(from server: FakeJSONServer) async throws -> RemoteCollection.Listing {
        try await RemoteCollection(configuration: SyncConfiguration(server: "http://fake"), transport: server).fetchAll()
    }

    static func outcome(_ server: FakeJSONServer) async -> Result<RemoteCollection.Listing, any Error> {
        do {
            return .success(try await listing(from: server))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [FakeJSONServer.Paging.link(size: 7), .envelope(size: 7)], [Set<Int>(), [1, 5, 12]])
    func aListReadAheadIsTheListReadPageByPage(paging: FakeJSONServer.Paging, skips: Set<Int>) async throws {
        // A server that closes every connection is read one page at a time.
        let ahead = await Self.server(paging, items: 100, skips: skips, closes: false)
        let single = await Self.server(paging, items: 100, skips: skips, closes: true)
        let readAhead = await Self.outcome(ahead)
        let walkedOne = await Self.outcome(single)
        #expect(await single.mostInFlight == 1)
        let most = await ahead.mostInFlight
        #expect(most > 1 && most <= RemoteCollection.pagesAhead + 1, "most in flight: \(most)")
        guard case let .success(walked) = walkedOne, case let .success(read) = readAhead else {
            // A `next` that skips a page leaves the list short of its total: refused either way.
            #expect(String(describing: readAhead) == String(describing: walkedOne))
            #expect(!skips.isEmpty)
            return
        }
        #expect(read.items.map(\.id) == walked.items.map(\.id))
        #expect(read.items == walked.items)
        #expect(read.pages == walked.pages)
        #expect(read.digest == walked.digest)
        #expect(read.skipped == walked.skipped)
        #expect(walked.pages == 15)
        // Nothing was fetched that the walk did not use.
        #expect(await ahead.requests == walked.pages)
    }

    @Test func theURLsBetweenNextAndLastAreToldOnlyWhenOneNumberCountsUp() {
        let count = RemoteCollection.countingURLs
        #expect(count("http://h/todos?_page=2&_limit=10", "http://h/todos?_page=4&_limit=10") == [
            "http://h/todos?_page=2&_limit=10", "http://h/todos?_page=3&_limit=10", "http://h/todos?_page=4&_limit=10",
        ])
        #expect(count("http://h/todos?_limit=10&_page=9", "http://h/todos?_limit=10&_page=9") == ["http://h/todos?_limit=10&_page=9"])
        // Not counting up, not integers, more than one difference, other paths or parameters.
        #expect(count("http://h/todos?_page=5", "http://h/todos?_page=4").isEmpty)
        #expect(count("http://h/todos?_page=02", "http://h/todos?_page=04").isEmpty)
        #expect(count("http://h/todos?cursor=abc", "http://h/todos?cursor=xyz").isEmpty)
        #expect(count("http://h/todos?_page=2&_limit=10", "http://h/todos?_page=4&_limit=20").isEmpty)
        #expect(count("http://h/todos?_page=2", "http://h/other?_page=4").isEmpty)
        #expect(count("http://h/todos?_page=2", "http://h/todos?_pages=4").isEmpty)
        #expect(count("http://h/todos", "http://h/todos") == ["http://h/todos"], "next is last: that one page")
    }
}
