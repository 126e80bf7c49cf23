import Foundation
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Parents and blockers travel on every kind of server, blockers merge as a
/// set, and a cycle two replicas make between them is broken alike on both.
struct LinkSyncTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_420_000)
    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func replicas(_ server: any HTTPTransport, caldav: Bool) throws -> (Replica, Replica) {
        let address = caldav ? FakeCalDAVServer.server : "http://fake"
        return (try Replica(transport: server, server: address), try Replica(transport: server, server: address))
    }

    static func servers() -> [(any HTTPTransport, Bool)] {
        [(FakeJSONServer(.v1), false), (FakeJSONServer(.v017), false), (FakeCalDAVServer(), true)]
    }

    @Test(arguments: 0..<3)
    func linksTravelAndBlockersMergeAsASet(server index: Int) async throws {
        let (server, caldav) = Self.servers()[index]
        let (a, b) = try Self.replicas(server, caldav: caldav)
        let parent = TodoItem(id: UUID(), text: "paint the room", createdAt: Self.at(0))
        let first = TodoItem(id: UUID(), text: "buy paint", createdAt: Self.at(1))
        let second = TodoItem(id: UUID(), text: "buy tape", createdAt: Self.at(2))
        let child = TodoItem(id: UUID(), text: "paint", createdAt: Self.at(3), parent: parent.id)
        for item in [parent, first, second, child] { try a.db.insertTodo(item) }
        try await a.sync(now: Self.at(10))
        try await b.sync(now: Self.at(20))
        #expect(try b.todos().first { $0.id == child.id }?.parent == parent.id)
        // Each side adds a blocker: both are kept.
        try a.db.updateTodos([try child.applying(TodoEdit(addBlockers: [first.idString]), at: Self.at(30))])
        let theirs = try #require(try b.todos().first { $0.id == child.id })
        try b.db.updateTodos([try theirs.applying(TodoEdit(addBlockers: [second.idString]), at: Self.at(31))])
        try await a.sync(now: Self.at(40))
        try await b.sync(now: Self.at(50))
        try await a.sync(now: Self.at(60))
        let expected = TodoLinks.normalized([first.id, second.id])
        #expect(try a.todos().first { $0.id == child.id }?.blockedBy == expected)
        #expect(try b.todos().first { $0.id == child.id }?.blockedBy == expected)
        // One removed here, the parent cleared there: both apply.
        let mine = try #require(try a.todos().first { $0.id == child.id })
        try a.db.updateTodos([try mine.applying(TodoEdit(removeBlockers: [first.idString]), at: Self.at(70))])
        let there = try #require(try b.todos().first { $0.id == child.id })
        try b.db.updateTodos([try there.applying(TodoEdit(parent: .some(nil)), at: Self.at(71))])
        try await a.sync(now: Self.at(80))
        try await b.sync(now: Self.at(90))
        try await a.sync(now: Self.at(100))
        for replica in [a, b] {
            let synced = try #require(try replica.todos().first { $0.id == child.id })
            #expect(synced.blockedBy == [second.id] && synced.parent == nil, "\(synced)")
        }
        #expect(try a.contents() == b.contents())
    }

    /// Each replica links one of two todos under the other, each allowed
    /// alone: after syncing, the link from the greater id is gone on both.
    @Test(arguments: 0..<3)
    func aCycleMadeOnTwoReplicasIsBrokenAlike(server index: Int) async throws {
        let (server, caldav) = Self.servers()[index]
        let (a, b) = try Self.replicas(server, caldav: caldav)
        let low = TodoItem(id: UUID(parsing: "10000000-0000-4000-8000-000000000000")!, text: "low", createdAt: Self.at(0))
        let high = TodoItem(id: UUID(parsing: "f0000000-0000-4000-8000-000000000000")!, text: "high", createdAt: Self.at(1))
        try a.db.insertTodo(low)
        try a.db.insertTodo(high)
        try await a.sync(now: Self.at(10))
        try await b.sync(now: Self.at(20))
        try a.db.updateTodos([try low.applying(TodoEdit(parent: .some(high.idString), addBlockers: [high.idString]), at: Self.at(30))])
        try b.db.updateTodos([try high.applying(TodoEdit(parent: .some(low.idString), addBlockers: [low.idString]), at: Self.at(31))])
        try await a.sync(now: Self.at(40))
        try await b.sync(now: Self.at(50))
        try await a.sync(now: Self.at(60))
        try await b.sync(now: Self.at(70))
        for replica in [a, b] {
            let todos = try replica.todos()
            #expect(todos.first { $0.id == low.id }?.parent == high.id, "the link from the smaller id stays")
            #expect(todos.first { $0.id == low.id }?.blockedBy == [high.id])
            #expect(todos.first { $0.id == high.id }?.parent == nil, "the link from the greatest id goes")
            #expect(todos.first { $0.id == high.id }?.blockedBy == [])
            #expect(try await SQLiteSyncStore(replica.db).pendingCount() == 0)
        }
        #expect(try a.contents() == b.contents())
    }

    /// A parent deleted there while a subtask is added here: the subtask
    /// survives everywhere, a todo of its own.
    @Test func aSubtaskAddedWhileItsParentIsDeletedSurvives() async throws {
        let server = FakeJSONServer(.v1)
        let (a, b) = try Self.replicas(server, caldav: false)
        let parent = TodoItem(id: UUID(), text: "trip", createdAt: Self.at(0))
        try a.db.insertTodo(parent)
        try a.db.insertTodo(TodoItem(id: UUID(), text: "other", createdAt: Self.at(1)))
        try await a.sync(now: Self.at(10))
        try await b.sync(now: Self.at(20))
        try a.db.deleteTodos(ids: [parent.id])
        let child = TodoItem(id: UUID(), text: "book the train", createdAt: Self.at(30), parent: parent.id)
        try b.db.insertTodo(child)
        try await a.sync(now: Self.at(40))
        try await b.sync(now: Self.at(50))
        try await a.sync(now: Self.at(60))
        for replica in [a, b] {
            #expect(Set(try replica.todos().map(\.text)) == ["book the train", "other"])
            #expect(selectTree(try replica.todos()).map(\.depth) == [0, 0])
        }
    }
}
