import Foundation
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Serves a fixed answer to `GET /todos` and passes everything else to a fake.
actor BrokenListing: HTTPTransport {
    let server: FakeJSONServer
    var listing: HTTPResponseData?
    var listingError: TransportError?
    private(set) var attempts = 0

    init(_ server: FakeJSONServer) { self.server = server }

    func breakListing(_ response: HTTPResponseData?, error: TransportError? = nil) {
        listing = response
        listingError = error
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        if request.method == "GET", request.url.hasSuffix("/todos") {
            if let listingError {
                attempts += 1
                throw listingError
            }
            if let listing { return listing }
        }
        return try await server.send(request)
    }
}

/// A failed, partial or suspicious fetch deletes nothing and keeps changes queued.
struct SyncSafetyTests {
    static func synced() async throws -> (Replica, BrokenListing, FakeJSONServer) {
        let server = FakeJSONServer(.v1)
        let broken = BrokenListing(server)
        let replica = try Replica(transport: broken)
        try replica.add("one")
        try replica.add("two")
        try await replica.sync()
        // A second sync lists them: their creates are confirmed (see `lostCreates`).
        try await replica.sync()
        try replica.add("queued")
        return (replica, broken, server)
    }

    static let badListings: [(HTTPResponseData, String)] = [
        (HTTPResponseData(status: 500, body: Array("<h1>oops</h1>".utf8)), "500"),
        (HTTPResponseData(status: 404, body: Array("{}".utf8)), "404"),
        (HTTPResponseData(status: 200, body: Array("[{\"id\":\"a\",\"tit".utf8)), "could not be read"),
        (HTTPResponseData(status: 200, body: Array("<html>".utf8)), "could not be read"),
        (HTTPResponseData(status: 200, body: Array("{\"todos\":[]}".utf8)), "not a JSON array"),
        (HTTPResponseData(status: 200, body: Array("{\"data\":[]}".utf8)), "--force"),
        (HTTPResponseData(status: 200, body: Array("[]".utf8)), "--force"),
    ]

    @Test(arguments: badListings)
    func badFetchDeletesNothingAndKeepsChangesQueued(response: HTTPResponseData, message: String) async throws {
        let (replica, broken, server) = try await Self.synced()
        await broken.breakListing(response)
        let error = await #expect(throws: SyncError.self) { try await replica.sync() }
        let text = String(describing: error)
        #expect(text.contains(message))
        #expect(text.contains("stay queued") || text.contains("--force"))
        #expect(try replica.todos().count == 3)
        #expect(try await SQLiteSyncStore(replica.db).pendingCount() == 1)
        #expect(await server.items.count == 2)
    }

    @Test func emptyListIsFollowedOnlyWithForceAndOnlyIfTheServerConfirmsIt() async throws {
        let (replica, broken, server) = try await Self.synced()
        await broken.breakListing(HTTPResponseData(status: 200, body: Array("[]".utf8)))
        // The todos are still there: the empty list was a lie, even with --force.
        let error = await #expect(throws: SyncError.self) {
            try await replica.service(force: true).sync(dryRun: true) { _ in }
        }
        guard case let .partialList(leftOut, examples)? = error else {
            Issue.record("expected partialList, got \(String(describing: error))")
            return
        }
        #expect(leftOut == 2 && Set(examples) == ["one", "two"])
        for item in await server.items { await server.remove(id: item["id"].flatMap(FakeJSONServer.text) ?? "") }
        let summary = try await replica.service(force: true).sync(dryRun: true) { _ in }
        #expect(summary.deletedLocally == 2)
    }

    @Test func timeoutsAreRetriedThenReportedWithTheCause() async throws {
        let (replica, broken, _) = try await Self.synced()
        await broken.breakListing(nil, error: TransportError(.timeout, "read timed out"))
        let error = await #expect(throws: SyncError.self) { try await replica.sync() }
        #expect(String(describing: error).contains("no answer within the time allowed"))
        #expect(String(describing: error).contains("cannot reach http://fake"))
        #expect(await broken.attempts == 3) // first try and two retries
        #expect(try replica.todos().count == 3)
    }

    @Test func deletingEverythingNeedsForce() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        let b = try Replica(transport: server)
        try a.add("one")
        try a.add("two")
        try await a.sync()
        try await b.sync()
        try a.db.deleteTodos(ids: try a.todos().map(\.id))
        try await a.sync()
        await server.insert(["id": .string("other"), "title": .string("added by someone else")])
        await #expect(throws: SyncError.wouldDeleteEverything(count: 2)) { try await b.sync() }
        #expect(try b.todos().count == 2)
        try await b.sync(force: true)
        #expect(try b.todos().map(\.text) == ["added by someone else"])
    }

    @Test func editDuringSyncIsKeptAndStaysQueued() async throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: UUID(), text: "a", createdAt: Date())
        try db.insertTodo(item)
        let rev = try await SQLiteSyncStore(db).pendingChanges().first?.rev
        try db.updateTodos([item.editing(text: "edited meanwhile", at: Date())])
        let base = SyncBase(todoId: item.id, remoteId: "1", fields: SyncFields(text: "a", isDone: false))
        let applied = try await SQLiteSyncStore(db).apply([SyncWrite(todoId: item.id, expectedRev: rev, todo: .save(item), base: .set(base))])
        #expect(applied == [false])
        #expect(try db.fetchListed(TodoRequest()).first?.item.text == "edited meanwhile")
        #expect(try await SQLiteSyncStore(db).pendingCount() == 1)
        #expect(try await SQLiteSyncStore(db).allBases().isEmpty)
    }
}
