import Foundation
import GRDB
import TodoCore

/// What an import did, or would do (a dry run).
public struct ImportSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Where in the file the todos it adds are.
    public var added: [Int] = []
    /// Each todo here that the import changes or found a conflict on: as it
    /// was, and how the file merged into it (`ImportMerge`).
    public var merges: [Merge] = []
    /// Where in the file the todos older than the last import of them are
    /// (`ImportMerge.isStale`): kept, and not remembered as seen.
    public var stale: [Int] = []

    public struct Merge: Sendable, Equatable {
        public var before: TodoItem
        public var merge: ImportMerge
    }
}

/// What an import does with a todo whose ID is here already.
public enum ImportReplacing: Sendable {
    /// Merges field by field against what the last import of it saw (JSON,
    /// Taskwarrior: ids of their own, and edits on both sides).
    case merging
    /// Keeps the todo here (todo.txt: an id derived from the line names the same line again).
    case never
}

// MARK: - Import
// An import remembers what it saw of each todo (`importBase`, migration
// 0017), so importing the same source again changes only what the source
// changed since: an edit made here in between is kept, and a field both
// changed is a conflict, reported.

extension AppDatabase {
    /// Stores many todos in one transaction: new IDs are inserted; a todo
    /// here already is merged as `replacing` says. Either every todo is
    /// stored or, on any failure, none is. Undo deletes the todos it added
    /// and writes back those it changed. A dry run reads, and writes nothing.
    public func importTodos(_ items: [TodoItem], replacing: ImportReplacing = .merging, dryRun: Bool = false) throws -> ImportSummary {
        try StorageError.wrap(path: path) {
            if dryRun {
                return try dbWriter.read { db in try Self.plan(db, items, replacing: replacing) }
            }
            return try dbWriter.writeWithoutTransaction { db in
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
        let summary = try plan(db, items, replacing: replacing)
        let step = try beginUndoStep(db, kind: .import, at: date)
        for merge in summary.merges where merge.merge.changes {
            let after = merge.merge.merged
            try journalUpdate(db, step: step, after)
            try db.executeCached(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: after.databaseValues)
        }
        let new = summary.added.map { items[$0] }
        let bulk = prefersBulkInsert(count: new.count, existing: existing)
        if bulk {
            let lastSeq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM todo") ?? 0
            try insertMany(db, new, work: work)
            try journalInserts(db, step: step, fromSeq: lastSeq + 1)
            if replacing == .merging {
                // The new rows are the file's todos as they were read.
                try db.execute(sql: "INSERT INTO importBase(todoId, step, todo) SELECT id, ?, \(rowSnapshot) FROM todo WHERE seq > ?",
                    arguments: [step, lastSeq])
            }
        } else {
            for item in new {
                try insert(db, item)
                try journalInsert(db, step: step, item)
            }
        }
        guard replacing == .merging else { return summary }
        let recordBase = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO importBase(todoId, step, todo) VALUES (?1, ?\(TodoItem.writtenCount + 1), \(boundSnapshot))
            """)
        // The file's todos, but those the bulk insert recorded and the stale ones.
        var recordHere = [Bool](repeating: true, count: items.count)
        for index in summary.stale + (bulk ? summary.added : []) { recordHere[index] = false }
        for (index, item) in items.enumerated() where recordHere[index] {
            var arguments = item.databaseValues
            _ = arguments.append(contentsOf: [step])
            try recordBase.execute(arguments: arguments)
        }
        return summary
    }

    /// What importing `items` does: which are new, and how each todo here
    /// with the same ID merges with the file's. Reads only.
    private static func plan(_ db: Database, _ items: [TodoItem], replacing: ImportReplacing) throws -> ImportSummary {
        var summary = ImportSummary()
        var here: [UUID: TodoItem] = [:]
        if try !isEmpty(db, "todo") {
            try forEachRow(db, "SELECT \(TodoItem.selection) FROM todo WHERE id IN", items.map(\.idString)) { row in
                if let item = TodoItem(row: row) { here[item.id] = item }
            }
        }
        let bases = replacing == .merging ? try lastImported(db, ids: here.keys.map(\.lowercasedString)) : [:]
        for (index, item) in items.enumerated() {
            guard let current = here[item.id] else {
                summary.added.append(index)
                continue
            }
            guard replacing == .merging else {
                summary.unchanged += 1
                continue
            }
            let merge = ImportMerge(here: current, lastImported: bases[item.id], file: item)
            if merge.isStale { summary.stale.append(index) }
            if merge.changes { summary.updated += 1 } else { summary.unchanged += 1 }
            if merge.changes || !merge.conflicts.isEmpty {
                summary.merges.append(ImportSummary.Merge(before: current, merge: merge))
            }
        }
        summary.inserted = summary.added.count
        return summary
    }

    /// What the last import of each of `ids` saw, where one did: the base
    /// with the highest step that undo has not taken back.
    private static func lastImported(_ db: Database, ids: [String]) throws -> [UUID: TodoItem] {
        var bases: [UUID: (step: Int64, item: TodoItem)] = [:]
        let columns = snapshotColumns("importBase.todo", id: "importBase.todoId")
        try forEachRow(db, """
            SELECT \(columns), step FROM importBase
            WHERE step < (SELECT coalesce(min(id), 9223372036854775807) FROM undoStep WHERE undoneAt IS NOT NULL) AND todoId IN
            """, ids) { row in
            let step: Int64 = row[TodoItem.selectionCount]
            guard let item = item(row), bases[item.id].map({ $0.step < step }) ?? true else { return }
            bases[item.id] = (step, item)
        }
        return bases.mapValues(\.item)
    }
}
