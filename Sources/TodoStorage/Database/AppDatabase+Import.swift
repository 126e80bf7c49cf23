import Foundation
import GRDB
import TodoCore

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
}

extension AppDatabase {
    /// Stores many todos in one transaction: new IDs are inserted; for an ID
    /// that exists, the version with the later `updatedAt` is kept.
    /// Either every todo is stored or, on any failure, none is.
    public func importTodos(_ items: [TodoItem]) throws -> ImportSummary {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try Self.withBulkWriting(db, if: items.count >= 1_000) {
                    var summary = ImportSummary()
                    try db.inTransaction(.immediate) {
                        summary = try Self.importTodos(db, items)
                        return .commit
                    }
                    return summary
                }
            }
        }
    }

    private static func importTodos(_ db: Database, _ items: [TodoItem]) throws -> ImportSummary {
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0
        guard prefersBulkInsert(count: items.count, existing: existing) else {
            let summary = try upsert(db, items, tableWasEmpty: existing == 0)
            if summary.inserted > 0 {
                try Self.recomputePrefixLengths(db)
            }
            return summary
        }
        let known = existing == 0 ? [] : try existingIds(db, items.map(\.idString))
        let new = items.filter { !known.contains($0.idString) }
        var summary = try upsert(db, items.filter { known.contains($0.idString) }, tableWasEmpty: false)
        try insertMany(db, new, queueForSync: true)
        summary.inserted = new.count
        return summary
    }

    /// Inserts or updates each todo, keeping the later `updatedAt`; short IDs
    /// of inserted todos are left for the caller to recompute.
    private static func upsert(_ db: Database, _ items: [TodoItem], tableWasEmpty: Bool) throws -> ImportSummary {
        var summary = ImportSummary()
        let insert = try db.cachedStatement(sql: """
            INSERT INTO todo (\(TodoItem.writtenColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                text = excluded.text, searchText = excluded.searchText, isDone = excluded.isDone,
                createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                completedAt = excluded.completedAt, due = excluded.due, priority = excluded.priority,
                tags = excluded.tags, note = excluded.note, recurrence = excluded.recurrence
            WHERE excluded.updatedAt > todo.updatedAt
            """)
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM todo WHERE id = ?")
        for item in items {
            let existed = tableWasEmpty ? false : try Bool.fetchOne(exists, arguments: [item.idString]) ?? false
            try insert.execute(arguments: item.databaseValues)
            if !existed {
                summary.inserted += 1
            } else if db.changesCount > 0 {
                summary.updated += 1
            } else {
                summary.unchanged += 1
            }
        }
        return summary
    }
}
