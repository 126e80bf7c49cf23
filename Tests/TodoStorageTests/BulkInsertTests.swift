import Foundation
import GRDB
import Testing
import TodoCore
@testable import TodoStorage

/// Many new todos at once (an import, a first sync) take the bulk path; it
/// must leave exactly what inserting them one by one leaves.
@Suite("Bulk inserts")
struct BulkInsertTests {
    static let words = ["Buy", "milk", "Crème", "brûlée", "Straße", "ÉCOLE", "İstanbul", "Σίσυφος", "café\u{301}", "tax", "Quokka"]

    /// Seeded todos with mixed-script texts, half done, each a millisecond apart.
    static func todos(_ count: Int, seed: UInt64 = 7, from start: Int64 = 0) -> [TodoItem] {
        var random = seed
        func next() -> UInt64 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return random >> 33
        }
        var items: [TodoItem] = []
        for index in 0..<Int64(count) {
            var text: [String] = []
            for _ in 0..<(2 + next() % 4) {
                text.append(words[Int(next() % UInt64(words.count))])
            }
            let done = next() % 2 == 0
            let at = Date(millisecondsSince1970: start + index)
            items.append(TodoItem(id: UUID(), text: text.joined(separator: " "), isDone: done, createdAt: at, completedAt: done ? at : nil))
        }
        return items
    }

    /// Everything a reader can tell about the todos: rows, short IDs, search, the sync queue.
    struct Contents: Equatable {
        var listed: [ListedTodo]
        var searches: [[UUID]]
        var pending: [String]
        var bases: [String]
    }

    static func contents(_ db: AppDatabase) throws -> Contents {
        // 3+ characters go through the trigram index, shorter ones scan.
        let queries = ["milk", "CRÈME", "straße", "ecole", "istanbul", "σίσ", "cafe", "café", "tax", "qu", "k"]
        return Contents(
            listed: try db.fetchListed(TodoRequest(status: .all)),
            searches: try queries.map { try db.fetchListed(TodoRequest(status: .all, query: $0)).map(\.item.id) },
            pending: try db.dbWriter.read { try String.fetchAll($0, sql: "SELECT todoId FROM syncPending ORDER BY rev") },
            bases: try db.dbWriter.read {
                try String.fetchAll($0, sql: "SELECT todoId || remoteId || text || isDone || ifnull(remoteVersion, '-') FROM syncBase ORDER BY todoId")
            }
        )
    }

    static func checkSearchIndex(_ db: AppDatabase) throws {
        try db.dbWriter.write { try $0.execute(sql: "INSERT INTO todoSearch(todoSearch, rank) VALUES ('integrity-check', 1)") }
    }

    /// The triggers and indexes: a bulk insert drops some and must leave them as they were.
    static func schema(_ db: AppDatabase) throws -> [String] {
        try db.dbWriter.read {
            try String.fetchAll($0, sql: """
                SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || sql FROM sqlite_master
                WHERE type IN ('trigger', 'index') AND sql IS NOT NULL ORDER BY name
                """)
        }
    }

    /// SQLite's own check: among others, every index holds exactly the table's rows.
    static func checkIntegrity(_ db: AppDatabase) throws {
        #expect(try db.dbWriter.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }

    @Test func anImportInBulkLeavesWhatInsertingOneByOneLeaves() throws {
        let items = Self.todos(1_500)
        let bulk = try AppDatabase.inMemory()
        let schema = try Self.schema(bulk)
        #expect(schema.contains { $0.hasPrefix("index todo_on_createdAt ON todo") })
        #expect(try bulk.importTodos(items) == ImportSummary(inserted: 1_500, updated: 0, unchanged: 0))
        let oneByOne = try AppDatabase.inMemory()
        for item in items { try oneByOne.insertTodo(item) }
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending.count == 1_500)
        #expect(try Self.schema(bulk) == schema)
        try Self.checkIntegrity(bulk)
        try Self.checkSearchIndex(bulk)
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
        #expect(summary == ImportSummary(inserted: 1_900, updated: 50, unchanged: 50))

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

    /// What a first sync pulling `items` stores: each todo's base.
    static func pulls(_ items: [TodoItem]) -> [SyncBase] {
        items.enumerated().map { index, item in
            SyncBase(todoId: item.id, remoteId: index % 2 == 0 ? item.idString : "\(index)", fields: item.syncFields,
                     remoteVersion: index % 3 == 0 ? nil : index)
        }
    }

    /// The same pulls as the writes of single sync steps: a new todo saved with its base.
    static func writes(_ pulls: [SyncBase], at time: Date) -> [SyncWrite] {
        pulls.map { pull in
            let item = TodoItem(id: pull.todoId, text: pull.fields.text, isDone: pull.fields.isDone,
                                createdAt: time, completedAt: pull.fields.isDone ? time : nil)
            return SyncWrite(todoId: pull.todoId, expectedRev: nil, todo: .save(item), base: .set(pull))
        }
    }

    static let pulledAt = Date(millisecondsSince1970: 1_700_000_000_000)

    @Test func storingPullsInBulkLeavesWhatApplyingThemOneByOneLeaves() async throws {
        let items = Self.todos(1_500)
        let bulk = try AppDatabase.inMemory()
        let oneByOne = try AppDatabase.inMemory()
        // A todo added here meanwhile stays queued; one with a create in flight is cleared.
        let local = TodoItem(id: UUID(), text: "added here", createdAt: Date(millisecondsSince1970: 5))
        for db in [bulk, oneByOne] {
            try db.insertTodo(local)
            try await db.markCreateInFlight(items[3].id)
        }
        var pulls = Self.pulls(items)
        // Pulled while here meanwhile: refused, nothing written for it.
        pulls[20] = SyncBase(todoId: local.id, remoteId: "r20", fields: SyncFields(text: "from the server", isDone: true))

        let stored = try await bulk.storePulls(pulls, at: Self.pulledAt)
        #expect(stored.filter { !$0 }.count == 1 && !stored[20])
        for (pull, write) in zip(pulls, Self.writes(pulls, at: Self.pulledAt)) where pull.todoId != local.id {
            #expect(try await oneByOne.apply([write]) == [true])
        }
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending == [local.idString])
        #expect(try await bulk.createsInFlight() == 0)
        #expect(try await bulk.baseCount() == 1_499)
        try Self.checkSearchIndex(bulk)
    }

    /// A base left for a todo that is neither here nor queued (no path of
    /// sync leaves one, but a file may hold one) is replaced by the pull, as
    /// `apply` replaces it, in bulk or not: the pull is the server's state now.
    @Test(arguments: [40, 1_500])
    func aPullOverALeftoverBaseReplacesIt(count: Int) async throws {
        let items = Self.todos(count, seed: 13)
        var pulls = Self.pulls(items)
        pulls[7].fields.text = "new title"
        let db = try AppDatabase.inMemory()
        try await db.dbWriter.write { conn in
            try conn.execute(sql: "INSERT INTO syncBase(todoId, remoteId, text, isDone) VALUES (?, 'old', 'old title', 0)",
                             arguments: [items[7].idString])
        }
        #expect(try await db.storePulls(pulls, at: Self.pulledAt).allSatisfy { $0 })
        let reference = try AppDatabase.inMemory()
        for write in Self.writes(pulls, at: Self.pulledAt) { _ = try await reference.apply([write]) }
        #expect(try Self.contents(db) == Self.contents(reference))
        #expect(try await db.baseCount() == count)
    }

    @Test func aPullOfATodoQueuedHereOrRepeatedIsNotStored() async throws {
        let db = try AppDatabase.inMemory()
        let items = Self.todos(30, seed: 12)
        try db.insertTodo(items[0])
        try db.deleteTodos(ids: [items[0].id]) // deleted here: the delete is queued
        var pulls = Self.pulls(Array(items.prefix(20)))
        pulls.append(pulls[5]) // the same todo twice
        let stored = try await db.storePulls(pulls, at: Self.pulledAt)
        #expect(stored == [false] + Array(repeating: true, count: 19) + [false])
        #expect(try db.fetchListed(TodoRequest(status: .all)).count == 19)
        #expect(try await db.pendingChanges().map(\.todoId) == [items[0].id])
        #expect(try await db.baseCount() == 19)
    }

    /// Every column of every row sync writes, as text.
    static func rows(_ db: AppDatabase) throws -> [String] {
        try db.dbWriter.read { db in
            try String.fetchAll(db, sql: """
                SELECT seq || '|' || id || '|' || text || '|' || searchText || '|' || isDone || '|' || createdAt || '|'
                    || updatedAt || '|' || ifnull(completedAt, '-') || '|' || idPrefixLength FROM todo ORDER BY seq
                """)
            + String.fetchAll(db, sql: "SELECT todoId || '|' || remoteId || '|' || text || '|' || isDone || '|' || ifnull(remoteVersion, '-') FROM syncBase ORDER BY rowid")
        }
    }

    @Test func aFirstSyncIntoAnEmptyDatabaseLeavesWhatOneByOneLeaves() async throws {
        // As a sync hands them: in the order of the IDs' text.
        let items = Self.todos(1_234, seed: 9).sorted { $0.idString < $1.idString }
        let pulls = Self.pulls(items)
        let bulk = try AppDatabase.inMemory()
        let oneByOne = try AppDatabase.inMemory()
        let schema = try Self.schema(bulk)
        #expect(try await bulk.storePulls(pulls, at: Self.pulledAt) == Array(repeating: true, count: items.count))
        #expect(try Self.schema(bulk) == schema)
        try Self.checkIntegrity(bulk)
        for write in Self.writes(pulls, at: Self.pulledAt) { _ = try await oneByOne.apply([write]) }
        #expect(try Self.rows(bulk) == Self.rows(oneByOne))
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending.isEmpty)
        try Self.checkSearchIndex(bulk)

        // Not in order: the same end state.
        let shuffled = try AppDatabase.inMemory()
        #expect(try await shuffled.storePulls(pulls.reversed(), at: Self.pulledAt).allSatisfy { $0 })
        let (inOrder, reversed) = (try Self.contents(oneByOne), try Self.contents(shuffled))
        #expect(reversed.listed.sorted { $0.item.idString < $1.item.idString } == inOrder.listed.sorted { $0.item.idString < $1.item.idString })
        #expect(reversed.bases == inOrder.bases && reversed.pending.isEmpty)
        // Too few for the bulk path: stored one by one, alike.
        let (few, fewOneByOne) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
        #expect(try await few.storePulls(Array(pulls.prefix(40)), at: Self.pulledAt).allSatisfy { $0 })
        for write in Self.writes(Array(pulls.prefix(40)), at: Self.pulledAt) { _ = try await fewOneByOne.apply([write]) }
        #expect(try Self.rows(few) == Self.rows(fewOneByOne))
        #expect(try Self.contents(few).pending.isEmpty)
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
