import Foundation
import GRDB
import TestSupport
import Testing
import TodoCore
import TodoMigrations
@testable import TodoStorage

@Suite("AppDatabase on real SQLite")
struct AppDatabaseTests {
    func todo(_ text: String, id: String? = nil, at ms: Int64 = 1_000, done: Bool = false) -> TodoItem {
        TodoItem(
            id: id.flatMap(UUID.init(uuidString:)) ?? UUID(),
            text: text,
            isDone: done,
            createdAt: Date(millisecondsSince1970: ms),
            completedAt: done ? Date(millisecondsSince1970: ms) : nil
        )
    }

    @Test func insertedTodosComeBackNewestFirst() throws {
        // Given
        let db = try AppDatabase.inMemory()
        let older = todo("older", at: 1_000)
        let newer = todo("newer", at: 2_000, done: true)
        // When
        try db.insertTodo(older)
        try db.insertTodo(newer)
        // Then
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.item) == [newer, older])
        #expect(try db.fetchListed(TodoRequest(status: .pending)).map(\.item) == [older])
        #expect(try db.fetchListed(TodoRequest(status: .done)).map(\.item) == [newer])
        #expect(try db.fetchListed(TodoRequest(status: .all, limit: 1)).map(\.item) == [newer])
        #expect(try db.counts(at: Date(), in: .current) == TodoCounts(pending: 1, done: 1))
    }

    @Test func updateChangesOnlyExistingTodos() throws {
        let db = try AppDatabase.inMemory()
        let milk = todo("milk")
        try db.insertTodo(milk)
        let edited = milk.editing(text: "oat milk", at: Date(millisecondsSince1970: 5_000))
        try db.updateTodos([edited])
        #expect(try db.fetchListed(TodoRequest()).map(\.item) == [edited])
        #expect(try db.fetchListed(TodoRequest(query: "oat")).map(\.item) == [edited])
        #expect(try db.fetchListed(TodoRequest(query: "milk")).count == 1)
        let ghost = todo("ghost")
        #expect(throws: TodoError.notFound(ghost.idString)) { try db.updateTodos([edited, ghost]) }
    }

    @Test func deleteIsAllOrNothing() throws {
        let db = try AppDatabase.inMemory()
        let milk = todo("milk")
        try db.insertTodo(milk)
        let ghost = UUID()
        #expect(throws: TodoError.notFound(ghost.uuidString.lowercased())) { try db.deleteTodos(ids: [milk.id, ghost]) }
        #expect(try db.fetchListed(TodoRequest()).count == 1)
        try db.deleteTodos(ids: [milk.id])
        #expect(try db.fetchListed(TodoRequest()).isEmpty)
        #expect(try db.fetchListed(TodoRequest(query: "milk")).isEmpty)
    }

    @Test func shortIDsAreTheShortestUniquePrefixes() throws {
        let db = try AppDatabase.inMemory()
        let ids = [
            "aaaa0000-0000-4000-8000-000000000000",
            "aaaa1000-0000-4000-8000-000000000000",
            "aaab0000-0000-4000-8000-000000000000",
            "bbbb0000-0000-4000-8000-000000000000",
        ]
        for id in ids { try db.insertTodo(todo(id, id: id)) }
        func shortIDs() throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try db.fetchListed(TodoRequest(status: .all)).map { ($0.item.idString, $0.shortID) })
        }
        #expect(try shortIDs() == [ids[0]: "aaaa0", ids[1]: "aaaa1", ids[2]: "aaab", ids[3]: "bbbb"])
        // Deleting a neighbour lets the other shrink back.
        try db.deleteTodos(ids: [UUID(uuidString: ids[1])!])
        #expect(try shortIDs() == [ids[0]: "aaaa", ids[2]: "aaab", ids[3]: "bbbb"])
        #expect(try db.widestShortID() == 4)
    }

    @Test func prefixesResolveOnlyWhenUnique() throws {
        let db = try AppDatabase.inMemory()
        let a = todo("a", id: "abcd0000-0000-4000-8000-000000000000")
        let b = todo("b", id: "abcd1000-0000-4000-8000-000000000000")
        try db.insertTodo(a)
        try db.insertTodo(b)
        #expect(try db.resolveListed(idPrefixes: ["abcd1"]).map(\.item) == [b])
        #expect(try db.resolveListed(idPrefixes: [a.idString]).map(\.item) == [a])
        let candidates = [IDMatch(shortID: "abcd0", text: "a"), IDMatch(shortID: "abcd1", text: "b")]
        #expect(throws: TodoError.ambiguousID("abcd", matches: 2, candidates: candidates)) {
            try db.resolveListed(idPrefixes: ["abcd"])
        }
        #expect(throws: TodoError.notFound("abce")) { try db.resolveListed(idPrefixes: ["abce"]) }
    }

    /// `todo list --query` run again with the same query takes no write.
    @Test func aQueryRunAgainIsNotWrittenAgain() async throws {
        let db = try AppDatabase.inMemory()
        try await db.setLastQuery("milk")
        let written = try await db.dbWriter.read { $0.totalChangesCount }
        try await db.setLastQuery("milk")
        #expect(try await db.dbWriter.read { $0.totalChangesCount } == written)
        try await db.setLastQuery("oat milk")
        #expect(try await db.dbWriter.read { $0.totalChangesCount } == written + 1)
        #expect(try await db.lastQuery() == "oat milk")
    }

    @Test func lastQueryIsRemembered() async throws {
        let db = try AppDatabase.inMemory()
        #expect(try await db.lastQuery() == "")
        try await db.setLastQuery("milk")
        #expect(try await db.lastQuery() == "milk")
    }

    @Test func importInsertsNewAndKeepsTheLatestVersion() throws {
        let db = try AppDatabase.inMemory()
        let milk = todo("milk", at: 1_000)
        try db.insertTodo(milk)
        let newerMilk = milk.editing(text: "oat milk", at: Date(millisecondsSince1970: 9_000))
        let staleMilk = TodoItem(id: milk.id, text: "old", createdAt: Date(millisecondsSince1970: 500))
        let bread = todo("bread", at: 2_000)
        #expect(try db.importTodos([newerMilk, bread]).counts == [1, 1, 0])
        #expect(try db.importTodos([staleMilk]).counts == [0, 0, 1])
        #expect(try db.fetchListed(TodoRequest()).map(\.item) == [bread, newerMilk])
    }

    @Test func importRecomputesShortIDs() throws {
        let db = try AppDatabase.inMemory()
        let items = (0..<2_000).map { todo("todo \($0)", at: Int64($0)) }
        _ = try db.importTodos(items)
        let listed = try db.fetchListed(TodoRequest(status: .all))
        #expect(listed.count == 2_000)
        let sorted = listed.map(\.item.idString).sorted()
        for todo in listed {
            let i = sorted.firstIndex(of: todo.item.idString)!
            let expected = TodoID.uniquePrefixLength(
                of: sorted[i], previous: i > 0 ? sorted[i - 1] : nil, next: i + 1 < sorted.count ? sorted[i + 1] : nil
            )
            #expect(todo.idPrefixLength == expected)
        }
    }

    @Test func searchUsesTheIndexForLongQueriesAndScansForShortOnes() throws {
        let db = try AppDatabase.inMemory()
        let plan = try db.dbWriter.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT 1 FROM todo JOIN todoSearch ON todoSearch.rowid = todo.seq WHERE todoSearch MATCH '\"mil\"' ORDER BY todo.createdAt DESC")
                .map { $0["detail"] as String }
        }
        #expect(plan.joined().contains("VIRTUAL TABLE INDEX"))
        #expect(AppDatabase.trigrams("milk") == ["mil", "ilk"])
        #expect(AppDatabase.trigrams("mi").isEmpty)
        #expect(AppDatabase.quotedFTSString("a\"b") == "\"a\"\"b\"")
    }

    @Test(arguments: TodoRequest.Status.allCases)
    func shortQueriesScanTheCoveringIndexNotTheTable(status: TodoRequest.Status) throws {
        let db = try AppDatabase.inMemory()
        let statements = AppDatabase.listSQL(TodoRequest(status: status, query: "mi"))
        #expect(statements.count == 1)
        let (sql, arguments) = (statements[0].sql, statements[0].arguments)
        let plan = try db.dbWriter.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
        #expect(plan.joined().contains("todo_on_isDone_createdAt_seq_searchText"), "\(plan)")
        #expect(!plan.joined().contains("todo_on_createdAt"), "no row read from the table to test it: \(plan)")
        #expect(!plan.joined().contains("TEMP B-TREE"), "newest first without sorting: \(plan)")
    }

    @Test func aSearchIndexWithColumnSizesIsRebuiltWithoutThemAndFindsTheSameTodos() throws {
        // A file as migration 0003 left it: a search index that kept token counts.
        let milk = todo("Milk", at: 1_000), mint = todo("mint tea", at: 2_000), bread = todo("Crème brûlée", at: 3_000, done: true)
        let path = try Self.olderDatabase(migrations: 3, holding: [milk, mint, bread])
        defer { removeDatabase(at: path) }
        #expect(try DatabaseQueue(path: path).read {
            try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'todoSearch_docsize')")
        } == true)

        let db = try AppDatabase.open(path: path)
        let (hasSizes, sql) = try db.dbWriter.read { db in
            (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'todoSearch_docsize')"),
             try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'todoSearch'"))
        }
        #expect(hasSizes == false)
        #expect(sql?.contains("columnsize = 0") == true)
        // Three characters and more go through the index: the todos written before are in it.
        #expect(try db.fetchListed(TodoRequest(status: .all, query: "MINT")).map(\.item) == [mint])
        #expect(try db.fetchListed(TodoRequest(status: .all, query: "CRÈME")).map(\.item) == [bread])
        // Its triggers feed the new index; a deletion leaves it.
        let oat = todo("oat milk", at: 4_000)
        try db.insertTodo(oat)
        try db.deleteTodos(ids: [milk.id])
        #expect(try db.fetchListed(TodoRequest(status: .all, query: "milk")).map(\.item) == [oat])
        try db.dbWriter.write { try $0.execute(sql: "INSERT INTO todoSearch(todoSearch, rank) VALUES ('integrity-check', 1)") }
    }

    @Test func aDatabaseFromTheLastVersionIsMigratedWithItsTodos() throws {
        // A file as the previous release left it: migrations 0001 and 0002 only.
        let milk = todo("Milk", at: 1_000), mint = todo("mint tea", at: 2_000), bread = todo("bread", at: 3_000, done: true)
        let path = try Self.olderDatabase(migrations: 2, holding: [milk, mint, bread])
        defer { removeDatabase(at: path) }

        let db = try AppDatabase.open(path: path)
        let applied = try db.dbWriter.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == AppMigrations.all.map(\.identifier))
        #expect(try db.fetchListed(TodoRequest(status: .pending, query: "mi")).map(\.item) == [mint, milk])
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.item) == [bread, mint, milk])
    }

    /// A database that ran 0017 as it landed, its import bases whole JSON
    /// todos, opens: 0019 drops those bases for digests, and an import run
    /// again merges as with a todo no import brought (the later one wins).
    @Test func importBasesOfTheLandedFormAreDroppedForDigests() throws {
        let milk = todo("Milk", at: 1_000)
        let landed = try #require(AppMigrations.all.firstIndex { $0.identifier == "0017_import_bases" })
        let path = try Self.olderDatabase(migrations: landed + 1, holding: [milk])
        defer { removeDatabase(at: path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write {
            // 0017 as it was first written: the bases as JSON todos.
            try $0.execute(sql: """
                DROP TABLE importBase;
                CREATE TABLE importBase (todoId TEXT NOT NULL, step INTEGER NOT NULL, todo TEXT NOT NULL, PRIMARY KEY (todoId, step)) STRICT, WITHOUT ROWID;
                """)
            try $0.execute(sql: "INSERT INTO importBase (todoId, step, todo) VALUES (?, 1, '{\"text\":\"Milk\"}')", arguments: [milk.idString])
        }
        try queue.close()

        let db = try AppDatabase.open(path: path)
        #expect(try db.dbWriter.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM importBase") } == 0)
        var later = milk.editing(text: "Oat milk", at: Date(millisecondsSince1970: 5_000))
        later.updatedAt = Date(millisecondsSince1970: 5_000)
        #expect(try db.importTodos([later]).counts == [0, 1, 0])
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.item.text) == ["Oat milk"])
        // The digest base is written, and a second run of the same file changes nothing.
        #expect(try db.importTodos([later]).counts == [0, 0, 1])
    }

    /// A database that ran migration 0014 under the name it had in development
    /// builds opens, with its todos, and records the name it has now.
    @Test func aMigrationRecordedUnderItsFormerNameIsKnown() throws {
        let milk = todo("Milk", at: 1_000)
        let path = try Self.olderDatabase(migrations: AppMigrations.all.count, holding: [milk])
        defer { removeDatabase(at: path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE grdb_migrations SET identifier = '0014_sync_sets_in_flight' WHERE identifier = '0014_sync_writes_in_doubt'") }
        try queue.close()

        let db = try AppDatabase.open(path: path)
        let applied = try db.dbWriter.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied.sorted() == AppMigrations.all.map(\.identifier).sorted())
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.item) == [milk])
    }

    /// Unconfirmed creates recorded before their answers were numbered
    /// (0021) keep the order 0006 gave them: one after another.
    @Test func unconfirmedCreatesRecordedBeforeAnswerNumbersKeepTheirOrder() throws {
        let before = try #require(AppMigrations.all.firstIndex { $0.identifier == "0021_sync_unconfirmed_answer_order" })
        let path = try Self.olderDatabase(migrations: before, holding: [])
        defer { removeDatabase(at: path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for key in ["c", "a", "b"] { try db.execute(sql: "INSERT INTO syncUnconfirmed(todoId) VALUES (?)", arguments: [key]) }
        }
        try queue.close()
        let db = try AppDatabase.open(path: path)
        let rows = try db.dbWriter.read { db in
            try Row.fetchAll(db, sql: "SELECT todoId, sentAfter, answered FROM syncUnconfirmed ORDER BY answered")
                .map { [$0[0] as String, "\($0[1] as Int64)", "\($0[2] as Int64)"] }
        }
        #expect(rows == [["c", "1", "1"], ["a", "2", "2"], ["b", "3", "3"]])
    }

    /// A new file in the temporary folder as an older release left it: the
    /// first `migrations` migrations only, holding `todos` (written as that
    /// schema's triggers write them). The caller removes it.
    static func olderDatabase(migrations: Int, holding todos: [TodoItem]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(UUID().uuidString).sqlite").path
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        for migration in AppMigrations.all.prefix(migrations) {
            migrator.registerMigration(migration.identifier) { try $0.execute(sql: migration.sql) }
        }
        try migrator.migrate(queue)
        for item in todos {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO todo (id, text, searchText, isDone, createdAt, updatedAt, completedAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        item.idString, item.text, TodoItem.searchKey(item.text), item.isDone,
                        item.createdAt.millisecondsSince1970, item.updatedAt.millisecondsSince1970,
                        item.completedAt?.millisecondsSince1970,
                    ]
                )
            }
        }
        try queue.close()
        return path
    }
}
