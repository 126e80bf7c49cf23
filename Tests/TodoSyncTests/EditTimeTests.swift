import Foundation
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Every field travels, and a conflict goes to the edit made last, by when
/// it was made on its machine, not by when it reached the server.
struct EditTimeTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_420_000) // 2026-11-23T07:46:40Z
    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test(arguments: [FakeJSONServer.Flavor.v1, .v017])
    func creationAndCompletionTimesTravel(flavor: FakeJSONServer.Flavor) async throws {
        let server = FakeJSONServer(flavor)
        let a = try Replica(transport: server)
        let b = try Replica(transport: server)
        let item = TodoItem(id: UUID(), text: "file taxes", createdAt: Self.at(0))
        try a.db.insertTodo(item)
        try a.db.updateTodos([item.marking(done: true, at: Self.at(60))])
        try await a.sync(now: Self.at(3600))
        try await b.sync(now: Self.at(7200))
        let pulled = try #require(try b.todos().first)
        #expect(pulled.createdAt == Self.at(0))
        #expect(pulled.completedAt == Self.at(60))
        #expect(pulled.updatedAt == Self.at(60))
        // Undone there, done again here later: the completion time follows.
        try b.db.updateTodos([pulled.marking(done: false, at: Self.at(8000))])
        try await b.sync(now: Self.at(8100))
        try await a.sync(now: Self.at(8200))
        #expect(try a.todos().first?.isDone == false)
        #expect(try a.todos().first?.completedAt == nil)
    }

    /// The case: an edit made at :30 on one machine and pushed first
    /// must lose to one made at :32 on another and pushed second, and the
    /// other way round.
    @Test(arguments: [false, true])
    func theEditMadeLastWinsWhicheverIsPushedFirst(laterPushesFirst: Bool) async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        let b = try Replica(transport: server)
        try a.db.insertTodo(TodoItem(id: UUID(), text: "call mom", createdAt: Self.at(0)))
        try await a.sync(now: Self.at(10))
        try await b.sync(now: Self.at(20))
        let earlier = try a.todos()[0].editing(text: "call mom at 5", at: Self.at(30))
        let later = try b.todos()[0].editing(text: "call mom at 6", at: Self.at(32))
        try a.db.updateTodos([earlier])
        try b.db.updateTodos([later])
        let (first, second) = laterPushesFirst ? (b, a) : (a, b)
        try await first.sync(now: Self.at(40))
        let summary = try await second.sync(now: Self.at(50))
        try await first.sync(now: Self.at(60))
        #expect(try a.todos()[0].text == "call mom at 6")
        #expect(try b.todos()[0].text == "call mom at 6")
        let conflict = try #require(summary.conflicts.first)
        #expect(conflict.winner == (laterPushesFirst ? .remote : .local))
        #expect([conflict.localEditedAt, conflict.remoteEditedAt].compactMap { $0 }.sorted() == [Self.at(30), Self.at(32)])
        let history = try await SQLiteSyncStore(second.db).conflictHistory(limit: 5)
        #expect(history.first?.localEditedAt == conflict.localEditedAt && history.first?.remoteEditedAt == conflict.remoteEditedAt)
    }

    /// A change by a client that writes no edit time counts as made when a
    /// sync first sees it: later than an edit made here before that.
    @Test func aChangeWithoutATraceCountsAsMadeWhenFirstSeen() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        try a.db.insertTodo(TodoItem(id: UUID(), text: "water plants", createdAt: Self.at(0)))
        try await a.sync(now: Self.at(10))
        let id = try #require(await server.items.first?["id"].flatMap(FakeJSONServer.text))
        // Another client edits the title and leaves the old edit time as it was.
        await server.change(id: id, ["title": .string("water the plants")])
        try a.db.updateTodos([try a.todos()[0].editing(text: "water plants today", at: Self.at(20))])
        let summary = try await a.sync(now: Self.at(30))
        #expect(summary.conflicts.first?.winner == .remote)
        #expect(summary.conflicts.first?.remoteEditedAt == Self.at(30))
        #expect(try a.todos()[0].text == "water the plants")
    }

    @Test func editTimesAndDatesAreWrittenIntoTheServersItem() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        try a.db.insertTodo(TodoItem(id: UUID(), text: "one", createdAt: Self.at(0)))
        try a.db.updateTodos([try a.todos()[0].editing(text: "one edited", at: Self.at(2))])
        try await a.sync(now: Self.at(5))
        let item = try #require(await server.items.first)
        #expect(item["createdAt"] == .string("2026-11-23T07:46:40.000Z"))
        // Edited: when; never edited since created: none.
        #expect(item["textEditedAt"] == .string("2026-11-23T07:46:42.000Z"))
        #expect(item["doneEditedAt"] == .null)
        #expect(item["updatedAt"] == .string("2026-11-23T07:46:42.000Z"))
        #expect(item["completedAt"] == .null)
        let renamed = FieldNames(createdAt: "created_at", updatedAt: "updated_at", completedAt: "completed_at")
        let b = try Replica(transport: server)
        try b.db.insertTodo(TodoItem(id: UUID(), text: "two", createdAt: Self.at(100)))
        _ = try await b.service(names: renamed, now: Self.at(105)).sync(dryRun: false) { _ in }
        let second = try #require(await server.items.first { $0["title"] == .string("two") })
        #expect(second["created_at"] == .string("2026-11-23T07:48:20.000Z") && second["createdAt"] == nil)
    }
}
