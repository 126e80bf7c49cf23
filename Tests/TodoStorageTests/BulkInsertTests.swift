import Foundation
import GRDB
import TestSupport
import Testing
import TodoCore
@testable import TodoStorage

/// Many new todos at once (an import, a first sync) take the bulk path; it
/// must leave exactly what inserting them one by one leaves.
@Suite("Bulk inserts")
struct BulkInsertTests {
    static func todos(_ count: Int, seed: UInt64 = 7, from start: Int64 = 0) -> [TodoItem] {
        StoredContents.todos(count, seed: seed, from: start)
    }

    static func contents(_ db: AppDatabase) throws -> StoredContents { try StoredContents(db) }

    static func checkSearchIndex(_ db: AppDatabase) throws { try StoredContents.checkSearchIndex(db) }

    static func schema(_ db: AppDatabase) throws -> [String] { try StoredContents.schema(db) }

    static func checkIntegrity(_ db: AppDatabase) throws {
        #expect(try StoredContents.integrity(db) == ["ok"])
    }

    @Test(arguments: [false, true])
    func anImportInBulkLeavesWhatInsertingOneByOneLeaves(plans: Bool) throws {
        let items = StoredContents.todos(1_500, plans: plans)
        let bulk = try AppDatabase.inMemory()
        let schema = try Self.schema(bulk)
        #expect(schema.contains { $0.hasPrefix("index todo_on_createdAt ON todo") })
        #expect(try bulk.importTodos(items).counts == [1_500, 0, 0])
        let oneByOne = try AppDatabase.inMemory()
        for item in items { try oneByOne.insertTodo(item) }
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending.count == 1_500)
        #expect(try Self.schema(bulk) == schema)
        try Self.checkIntegrity(bulk)
        try Self.checkSearchIndex(bulk)
        let linked = try bulk.dbWriter.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo WHERE parent IS NOT NULL") } ?? 0
        #expect((linked > 0) == plans)
        // The partial indexes on the plan's columns take what comes next.
        let subtask = TodoItem(id: UUID(), text: "paint", createdAt: Date(millisecondsSince1970: 9_999), parent: items[0].id)
        try bulk.insertTodo(subtask)
        let children = try bulk.dbWriter.read {
            try String.fetchAll($0, sql: "SELECT id FROM todo INDEXED BY todo_on_parent WHERE parent = ?", arguments: [items[0].idString])
        }
        #expect(children.contains(subtask.idString))
        try Self.checkIntegrity(bulk)
    }

    @Test func anImportIntoATableWithTodosStillMergesByUpdatedAt() throws {
        let db = try AppDatabase.inMemory()
        let old = Self.todos(200, seed: 1)
        _ = try db.importTodos(old)
        let later = Date(millisecondsSince1970: 10_000_000)
        let newer = old.prefix(50).map { $0.editing(text: "edited \($0.text)", at: later) }
        let stale = old.dropFirst(50).prefix(50).map { TodoItem(id: $0.id, text: "stale", createdAt: Date(millisecondsSince1970: -5)) }
        let fresh = Self.todos(1_900, seed: 2, from: 1_000_000)
        let summary = try db.importTodos(newer + stale + fresh)
        #expect(summary.counts == [1_900, 50, 50])

        // The same end state, reached one todo at a time.
        let reference = try AppDatabase.inMemory()
        for item in old { try reference.insertTodo(item) }
        try reference.updateTodos(Array(newer))
        for item in fresh { try reference.insertTodo(item) }
        let (bulk, expected) = (try Self.contents(db), try Self.contents(reference))
        #expect(bulk.listed == expected.listed)
        #expect(bulk.searches == expected.searches)
        #expect(Set(bulk.pending) == Set(expected.pending))
        try Self.checkSearchIndex(db)
    }

    @Test(arguments: [0, 10])
    func aFailedBulkInsertWritesNothingAndKeepsItsTriggersAndIndexes(todosBefore: Int) throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importTodos(Self.todos(todosBefore, seed: 3))
        let before = try Self.contents(db)
        let schema = try Self.schema(db)
        var items = Self.todos(1_500, seed: 4)
        items.append(items[700]) // the second copy fails the insert half way
        #expect(throws: StorageError.self) { try db.importTodos(items) }
        #expect(try Self.contents(db) == before)
        #expect(try Self.schema(db) == schema)
        // The triggers still index and queue what comes next.
        let milk = TodoItem(id: UUID(), text: "oat milk", createdAt: Date(millisecondsSince1970: 99))
        try db.insertTodo(milk)
        #expect(try db.fetchListed(TodoRequest(query: "oat")).map(\.item) == [milk])
        #expect(try Self.contents(db).pending.last == milk.idString)
        try Self.checkSearchIndex(db)
    }

    /// A bulk write to a file goes through a rollback journal when no other
    /// connection has the file open, else through the log; the file ends in
    /// WAL mode with everything stored either way.
    @Test func aBulkWriteUsesARollbackJournalOnlyWhenAloneAndLeavesWALMode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.sqlite").path
        let db = try AppDatabase.open(path: path)
        func modeDuringBulkWrite() throws -> String? {
            try db.dbWriter.writeWithoutTransaction { conn in
                try AppDatabase.withBulkWriting(conn, if: true) { try String.fetchOne(conn, sql: "PRAGMA journal_mode") }
            }
        }
        func settings() throws -> [String?] {
            try db.dbWriter.read { conn in
                try ["journal_mode", "synchronous", "cache_size"].map { try String.fetchOne(conn, sql: "PRAGMA \($0)") }
            }
        }
        let before = try settings()
        #expect(before.first == "wal")
        #expect(try modeDuringBulkWrite() == "delete")
        #expect(try settings() == before)

        // Another connection holds the file open: SQLite refuses the switch at once.
        let other = try DatabaseQueue(path: path)
        #expect(try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM todo") } == 0)
        #expect(try modeDuringBulkWrite() == "wal")
        let shared = Self.todos(1_200, seed: 5)
        #expect(try db.importTodos(shared).inserted == 1_200)
        try other.close()
        let alone = Self.todos(1_300, seed: 6, from: 5_000)
        #expect(try db.importTodos(alone).inserted == 1_300)
        #expect(try settings() == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))

        let reference = try AppDatabase.inMemory()
        _ = try reference.importTodos(shared)
        _ = try reference.importTodos(alone)
        #expect(try Self.contents(db) == Self.contents(reference))
        #expect(try db.dbWriter.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        try Self.checkSearchIndex(db)
    }

    @Test func shortIDsOfTodosAlreadyThereGrowWithTheirNewNeighbours() throws {
        let db = try AppDatabase.inMemory()
        // IDs sharing long prefixes, so old and new neighbours need more than 4 characters.
        func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "abcdef%02x-0000-4000-8000-%012x", n % 7, n))! }
        let old = (0..<40).map { TodoItem(id: id($0 * 2), text: "old \($0)", createdAt: Date(millisecondsSince1970: Int64($0))) }
        _ = try db.importTodos(old)
        let new = (0..<1_200).map { TodoItem(id: id($0 * 2 + 1), text: "new \($0)", createdAt: Date(millisecondsSince1970: Int64($0))) }
        _ = try db.importTodos(new)
        let listed = try db.fetchListed(TodoRequest(status: .all))
        let sorted = listed.map(\.item.idString).sorted()
        for todo in listed {
            let i = sorted.firstIndex(of: todo.item.idString)!
            let expected = TodoID.uniquePrefixLength(
                of: sorted[i], previous: i > 0 ? sorted[i - 1] : nil, next: i + 1 < sorted.count ? sorted[i + 1] : nil
            )
            #expect(todo.idPrefixLength == expected, "\(todo.item.idString)")
        }
    }
}
