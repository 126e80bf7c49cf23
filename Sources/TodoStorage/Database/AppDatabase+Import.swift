import Foundation
import GRDB
import TodoCore

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
}

/// What an import does with a todo whose ID exists already.
public enum ImportReplacing: Sendable {
    /// Keeps the version with the later `updatedAt` (JSON, Taskwarrior: ids and edit times of their own).
    case whenNewer
    /// Keeps the todo here (todo.txt: an id derived from the line names the same line again).
    case never
}

extension AppDatabase {
    /// Stores many todos in one transaction: new IDs are inserted; for an ID
    /// that exists, `replacing` says which version is kept.
    /// Either every todo is stored or, on any failure, none is. Undo deletes
    /// the todos it added and writes back those it replaced.
    public func importTodos(_ items: [TodoItem], replacing: ImportReplacing = .whenNewer) throws -> ImportSummary {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try Self.withBulkWriting(db, if: items.count >= 1_000) {
                    var summary = ImportSummary()
                    try db.inTransaction(.immediate) {
                        summary = try Self.importTodos(db, items, replacing: replacing, at: now(), work: bulkInsertWork)
                        return .commit
                    }
                    return summary
                }
            }
        }
    }

    private static func importTodos(
        _ db: Database, _ items: [TodoItem], replacing: ImportReplacing, at date: Date, work: BulkInsertWork
    ) throws -> ImportSummary {
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0
        let step = try beginUndoStep(db, kind: .import, at: date)
        guard prefersBulkInsert(count: items.count, existing: existing) else {
            let summary = try upsert(db, items, tableWasEmpty: existing == 0, replacing: replacing, step: step)
            if summary.inserted > 0 {
                try Self.recomputePrefixLengths(db)
            }
            return summary
        }
        let known = existing == 0 ? [] : try existingIds(db, items.map(\.idString))
        let new = items.filter { !known.contains($0.idString) }
        var summary = try upsert(db, items.filter { known.contains($0.idString) }, tableWasEmpty: false, replacing: replacing, step: step)
        let lastSeq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM todo") ?? 0
        try insertMany(db, new, work: work)
        try journalInserts(db, step: step, fromSeq: lastSeq + 1)
        summary.inserted = new.count
        return summary
    }

    /// Inserts or updates each todo as `replacing` says, journaling it in
    /// `step`; short IDs of inserted todos are left for the caller to recompute.
    private static func upsert(
        _ db: Database, _ items: [TodoItem], tableWasEmpty: Bool, replacing: ImportReplacing, step: Int64
    ) throws -> ImportSummary {
        var summary = ImportSummary()
        // The same condition in the upsert and in the journal: `?6` is the imported updatedAt.
        let replaces = switch replacing {
        case .whenNewer: (upsert: "excluded.updatedAt > todo.updatedAt", journal: "?6 > updatedAt")
        case .never: (upsert: "0", journal: "0")
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO todo (\(TodoItem.writtenColumns))
            VALUES (\(Array(repeating: "?", count: TodoItem.writtenCount).joined(separator: ", ")))
            ON CONFLICT(id) DO UPDATE SET
                text = excluded.text, searchText = excluded.searchText, isDone = excluded.isDone,
                createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                completedAt = excluded.completedAt, due = excluded.due, priority = excluded.priority,
                tags = excluded.tags, note = excluded.note, recurrence = excluded.recurrence,
                project = excluded.project, wait = excluded.wait, scheduled = excluded.scheduled, until = excluded.until,
                parent = excluded.parent, blockedBy = excluded.blockedBy,
                \(Self.importedEditTimes)
            WHERE \(replaces.upsert)
            """)
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM todo WHERE id = ?")
        for item in items {
            let existed = tableWasEmpty ? false : try Bool.fetchOne(exists, arguments: [item.idString]) ?? false
            if existed {
                try journalUpdate(db, step: step, item, when: replaces.journal)
            }
            try insert.execute(arguments: item.databaseValues)
            if !existed {
                summary.inserted += 1
                try journalInsert(db, step: step, item)
            } else if db.changesCount > 0 {
                summary.updated += 1
            } else {
                summary.unchanged += 1
            }
        }
        return summary
    }

    /// An imported todo that replaces one here edits the fields it changes,
    /// at its `updatedAt`; the others keep their edit times.
    private static let importedEditTimes = [
        ("text", "textEditedAt"), ("isDone", "doneEditedAt"), ("due", "dueEditedAt"),
        ("priority", "priorityEditedAt"), ("tags", "tagsEditedAt"), ("note", "noteEditedAt"),
        ("recurrence", "recurrenceEditedAt"), ("project", "projectEditedAt"), ("wait", "waitEditedAt"),
        ("scheduled", "scheduledEditedAt"), ("until", "untilEditedAt"), ("parent", "parentEditedAt"),
        ("blockedBy", "blockedByEditedAt"),
    ].map { column, time in
        "\(time) = CASE WHEN excluded.\(column) IS NOT todo.\(column) THEN excluded.updatedAt ELSE todo.\(time) END"
    }.joined(separator: ", ")
}
