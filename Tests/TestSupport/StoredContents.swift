import Foundation
import GRDB
import TodoCore
import TodoStorage

/// Everything a reader can tell about a database's todos: rows, short IDs,
/// search, the sync queue and bases. Two databases that should hold the same
/// (a bulk path and the one-by-one path beside it) compare equal here.
public struct StoredContents: Equatable {
    public var listed: [ListedTodo]
    public var searches: [[UUID]]
    public var pending: [String]
    public var bases: [String]

    public init(_ db: AppDatabase) throws {
        // 3+ characters go through the trigram index, shorter ones scan.
        let queries = ["milk", "CRÈME", "straße", "ecole", "istanbul", "σίσ", "cafe", "café", "tax", "qu", "k"]
        listed = try db.fetchListed(TodoRequest(status: .all))
        searches = try queries.map { try db.fetchListed(TodoRequest(status: .all, query: $0)).map(\.item.id) }
        pending = try db.dbWriter.read { try String.fetchAll($0, sql: "SELECT todoId FROM syncPending ORDER BY rev") }
        bases = try db.dbWriter.read { try Row.fetchAll($0, sql: "SELECT * FROM syncBase ORDER BY todoId").map(\.description) }
    }

    public static let words = ["Buy", "milk", "Crème", "brûlée", "Straße", "ÉCOLE", "İstanbul", "Σίσυφος", "café\u{301}", "tax", "Quokka"]

    /// Seeded todos with mixed-script texts, half done, each a millisecond
    /// apart. With `plans`, a third also have plan fields (a project, a wait
    /// date, a parent or blockers among the todos before them) edited when
    /// they were created: the bulk paths bind the plan's columns only then.
    public static func todos(_ count: Int, seed: UInt64 = 7, from start: Int64 = 0, plans: Bool = false) -> [TodoItem] {
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
            var item = TodoItem(id: UUID(), text: text.joined(separator: " "), isDone: done, createdAt: at, completedAt: done ? at : nil)
            if plans, index > 0, next() % 3 == 0 {
                let earlier = { items[Int(next() % UInt64(items.count))].id }
                switch next() % 4 {
                case 0: item.project = ["home", "home.garden", "work"][Int(next() % 3)]
                case 1: item.wait = TodoDue(text: "2026-12-0\(1 + next() % 9)")
                case 2: item.parent = earlier()
                default: item.blockedBy = Array(Set([earlier(), earlier()])).sorted { $0.uuidString < $1.uuidString }
                }
                item.editedAt[.project] = item.project.map { _ in at }
                item.editedAt[.wait] = item.wait.map { _ in at }
                item.editedAt[.parent] = item.parent.map { _ in at }
                item.editedAt[.blockedBy] = item.blockedBy.isEmpty ? nil : at
            }
            items.append(item)
        }
        return items
    }

    /// FTS5's own check of the search index; throws if it is not consistent.
    public static func checkSearchIndex(_ db: AppDatabase) throws {
        try db.dbWriter.write { try $0.execute(sql: "INSERT INTO todoSearch(todoSearch, rank) VALUES ('integrity-check', 1)") }
    }

    /// The triggers and indexes: a bulk insert drops some and must leave them as they were.
    public static func schema(_ db: AppDatabase) throws -> [String] {
        try db.dbWriter.read {
            try String.fetchAll($0, sql: """
                SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || sql FROM sqlite_master
                WHERE type IN ('trigger', 'index') AND sql IS NOT NULL ORDER BY name
                """)
        }
    }

    /// SQLite's own check (`["ok"]` when sound): among others, every index holds exactly the table's rows.
    public static func integrity(_ db: AppDatabase) throws -> [String] {
        try db.dbWriter.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
    }
}

extension ImportSummary {
    /// Added, updated and kept: what `todo import` counts.
    public var counts: [Int] { [inserted, updated, unchanged] }
}
