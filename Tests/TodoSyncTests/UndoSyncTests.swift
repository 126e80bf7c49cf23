import Foundation
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// An undo is an ordinary change made here: the next sync sends it, and a
/// deleted todo that comes back is the same todo everywhere, never a second one.
@Suite(.serialized)
struct UndoSyncTests {
    /// Two replicas of one list: `a` adds "pay rent" and two more (so that
    /// deleting one is not a list emptied, which sync refuses), and both sync them.
    static func synced(_ transport: any HTTPTransport, server: String) async throws -> (Replica, Replica) {
        let a = try Replica(transport: transport, server: server)
        let b = try Replica(transport: transport, server: server)
        try a.add("pay rent")
        try a.add("call mom")
        try a.add("water plants")
        try await a.sync()
        try await a.sync()
        try await b.sync()
        return (a, b)
    }

    /// Deletes the todo on `a`, syncs the delete if `syncFirst`, undoes it,
    /// syncs both: each ends with the one todo, under its id.
    static func deleteAndUndo(_ a: Replica, _ b: Replica, syncFirst: Bool) async throws {
        let item = try #require(try a.todos().first { $0.text == "pay rent" })
        try a.db.deleteTodos(ids: [item.id])
        if syncFirst {
            try await a.sync()
            try await b.sync()
            #expect(try b.todos().count == 2)
        }
        #expect(try a.db.undoLatest(force: false, at: Date()).summary == "delete of “pay rent”")
        try await a.sync()
        try await a.sync()
        try await b.sync()
        for replica in [a, b] {
            #expect(try replica.todos().filter { $0.text == "pay rent" }.map(\.id) == [item.id])
            #expect(try replica.todos().count == 3)
        }
    }

    /// Found by a 600-seed model search: a sync sent the edit, the server
    /// took it, and the answer was lost; an undo then must not restore the
    /// older edit time, which the server's newer one would beat.
    @Test func anUndoAfterASyncWhoseAnswerWasLostIsTheNewestEdit() async throws {
        let server = FakeJSONServer(.v1)
        let cutting = CuttingAnswers(server)
        let (a, b) = try await Self.synced(cutting, server: "http://fake")
        let item = try #require(try a.todos().first { $0.text == "pay rent" })
        try a.db.updateTodos([item.marking(done: true, at: Date())])
        await cutting.cut(["PATCH"])
        _ = try? await a.sync()
        await cutting.cut([])
        #expect(try a.db.undoLatest(force: false, at: Date().addingTimeInterval(1)).summary == "done mark of “pay rent”")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        for replica in [a, b] {
            #expect(try replica.todos().first { $0.id == item.id }?.isDone == false)
        }
    }

    @Test(arguments: [false, true])
    func aDeleteUndoneComesBackOnceThroughAJSONServer(syncFirst: Bool) async throws {
        let server = FakeJSONServer(.v1)
        let (a, b) = try await Self.synced(server, server: "http://fake")
        try await Self.deleteAndUndo(a, b, syncFirst: syncFirst)
        #expect(await server.items.count == 3)
    }

    @Test(arguments: [false, true])
    func aDeleteUndoneComesBackOnceThroughTodoServer(syncFirst: Bool) async throws {
        try await withLiveTodoServer { url in
            let transport = AsyncHTTPTransport(timeout: .seconds(10))
            let (a, b) = try await Self.synced(transport, server: url)
            try await Self.deleteAndUndo(a, b, syncFirst: syncFirst)
            let remote = try await RemoteCollection(configuration: SyncConfiguration(server: url), transport: transport).fetchAll()
            #expect(remote.items.map(\.fields.text).sorted() == ["call mom", "pay rent", "water plants"])
        }
    }

    @Test func anEditUndoneAfterASyncIsSentAsAnEdit() async throws {
        let server = FakeJSONServer(.v1)
        let (a, b) = try await Self.synced(server, server: "http://fake")
        let item = try #require(try a.todos().first { $0.text == "pay rent" })
        try a.db.updateTodos([item.editing(text: "pay the rent", at: Date())])
        try await a.sync()
        try await b.sync()
        #expect(try b.todos().contains { $0.text == "pay the rent" })
        _ = try a.db.undoLatest(force: false, at: Date())
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 1)
        try await a.sync()
        try await b.sync()
        #expect(try b.todos().filter { $0.id == item.id }.map(\.text) == ["pay rent"])
        #expect(await server.items.count == 3)
    }

    /// A sync's writes are not journaled: undo takes back a's own edit, and
    /// keeps what the sync changed since in another field (b's done mark).
    /// (A sync writing the field the edit wrote blocks the undo:
    /// `UndoJournalTests`.)
    @Test func aSyncsWritesAreNotJournaledAndBlockAnUndoOnlyOfTheFieldTheyChanged() async throws {
        let server = FakeJSONServer(.v1)
        let (a, b) = try await Self.synced(server, server: "http://fake")
        // b's journal has nothing: the todo came by sync.
        #expect(try b.db.undoJournal(limit: 10).isEmpty)
        let item = try #require(try a.todos().first { $0.text == "pay rent" })
        try a.db.updateTodos([item.editing(text: "pay rent today", at: Date())])
        let other = try #require(try b.todos().first { $0.id == item.id })
        try b.db.updateTodos([other.marking(done: true, at: Date())])
        try await b.sync()
        try await a.sync()
        // a's edit is still the latest change made on a; the sync's done mark is not in a's journal.
        #expect(try a.db.undoJournal(limit: 10).map(\.command) == ["edit", "add", "add", "add"])
        #expect(try a.db.undoLatest(force: false, at: Date()).command == "edit")
        let undone = try #require(try a.todos().first { $0.id == item.id })
        #expect(undone.text == "pay rent" && undone.isDone)
    }

    /// An undo made before any sync leaves the todo as if the change had
    /// never been made, even where the server holds the value the change
    /// wrote (put there before an earlier undo): `b` sets high and syncs,
    /// undoes that (a new edit, not yet sent), `c` sets medium and syncs,
    /// then `b` sets high again and undoes it before syncing. `c`'s edit is
    /// the newest one made: every replica ends with medium.
    @Test func anUndoBeforeAnySyncAfterAnEarlierUndoIsNoNewEdit() async throws {
        let server = FakeJSONServer(.v1)
        let (b, c) = try await Self.synced(server, server: "http://fake")
        let start = Date()
        let item = try #require(try b.todos().first { $0.text == "pay rent" })
        try b.db.updateTodos([try item.applying(TodoEdit(priority: .some(.high)), at: start)])
        try await b.sync()
        _ = try b.db.undoLatest(force: false, at: start + 1)
        try await c.sync()
        let theirs = try #require(try c.todos().first { $0.id == item.id })
        try c.db.updateTodos([try theirs.applying(TodoEdit(priority: .some(.medium)), at: start + 2)])
        try await c.sync()
        let before = try #require(try b.todos().first { $0.id == item.id })
        try b.db.updateTodos([try before.applying(TodoEdit(priority: .some(.high)), at: start + 3)])
        _ = try b.db.undoLatest(force: false, at: start + 4)
        // Exactly as before the change: the same edit time and updatedAt.
        #expect(try b.todos().first { $0.id == item.id } == before)
        try await b.sync()
        try await c.sync()
        try await b.sync()
        for replica in [b, c] {
            #expect(try replica.todos().first { $0.id == item.id }?.priority == .medium)
        }
    }
}
