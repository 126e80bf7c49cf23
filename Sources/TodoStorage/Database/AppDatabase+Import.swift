import Foundation
import GRDB
import TodoCore

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
                return try dbWriter.read { db in try Self.plan(db, items, replacing: replacing).0 }
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
        let (summary, bases) = try plan(db, items, replacing: replacing)
        let step = try beginUndoStep(db, kind: .import, at: date)
        for merge in summary.merges where merge.merge.changes {
            let after = merge.merge.merged
            try journalUpdate(db, step: step, after)
            try db.executeCached(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: after.databaseValues)
        }
        let new = summary.added.map { items[$0] }
        if prefersBulkInsert(count: new.count, existing: existing) {
            let lastSeq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM todo") ?? 0
            try insertMany(db, new, work: work)
            try journalInserts(db, step: step, fromSeq: lastSeq + 1)
        } else {
            for item in new {
                try insert(db, item)
                try journalInsert(db, step: step, item)
            }
        }
        if replacing == .merging { try record(db, items, seen: summary, bases: bases, step: step) }
        return summary
    }

    /// Records what the import saw of each todo, but the stale ones and those
    /// it saw as the last import did. A todo keeps the base before the new
    /// one, for when undo takes the new one back; older ones go.
    private static func record(_ db: Database, _ items: [TodoItem], seen summary: ImportSummary, bases: [UUID: LastImport], step: Int64) throws {
        var stale = [Bool](repeating: false, count: items.count)
        for index in summary.stale { stale[index] = true }
        var seen: [(key: UUIDOrderKey, item: Int, base: ImportBase)] = []
        for (index, item) in items.enumerated() where !stale[index] {
            let base = ImportBase(item)
            guard bases[item.id]?.base != base else { continue }
            seen.append((item.id.orderKey, index, base))
        }
        // In the key's order, many rows a statement: one GRDB insert a row at
        // random, 100,000 bases took an import 1.2x as long.
        seen.sort { $0.key < $1.key }
        let insert = try ChunkedInsert(
            db, into: "importBase (todoId, step, updatedAt, fields)", columns: 4,
            then: "ON CONFLICT(todoId, step) DO UPDATE SET updatedAt = excluded.updatedAt, fields = excluded.fields"
        )
        try insert.insert(count: seen.count) { statement, row, first in
            statement.bind(first, items[seen[row].item].idString)
            statement.bind(first + 1, step)
            statement.bind(first + 2, seen[row].base.updatedAt.millisecondsSince1970)
            statement.bind(first + 3, seen[row].base.data)
        }
        let prune = try db.cachedStatement(sql: "DELETE FROM importBase WHERE todoId = ? AND step < ?")
        for (_, index, _) in seen {
            if let previous = bases[items[index].id] { try prune.execute(arguments: [items[index].idString, previous.step]) }
        }
    }

    /// What importing `items` does: which are new, and how each todo here
    /// with the same ID merges with the file's; and the base of each that an
    /// import saw before. Reads only.
    private static func plan(
        _ db: Database, _ items: [TodoItem], replacing: ImportReplacing
    ) throws -> (ImportSummary, [UUID: LastImport]) {
        var summary = ImportSummary()
        var here: [UUID: TodoItem] = [:]
        if try !isEmpty(db, "todo") {
            try forEachRow(db, "SELECT \(TodoItem.selection) FROM todo WHERE id IN", items.map(\.idString)) { row in
                if let item = TodoItem(row: row) { here[item.id] = item }
            }
        }
        var bases: [UUID: LastImport] = [:]
        if replacing == .merging, try !isEmpty(db, "importBase") {
            bases = try lastImported(db, ids: items.map(\.idString))
        }
        for (index, item) in items.enumerated() {
            guard let current = here[item.id] else {
                summary.added.append(index)
                continue
            }
            guard replacing == .merging else {
                summary.unchanged += 1
                continue
            }
            let merge = ImportMerge(here: current, lastImported: bases[item.id]?.base, file: item)
            if merge.isStale { summary.stale.append(index) }
            if merge.changes { summary.updated += 1 } else { summary.unchanged += 1 }
            if merge.changes || !merge.conflicts.isEmpty {
                summary.merges.append(ImportSummary.Merge(before: current, merge: merge))
            }
        }
        summary.inserted = summary.added.count
        return (summary, bases)
    }

    /// What the last import of a todo saw, and that import's journal step.
    private typealias LastImport = (step: Int64, base: ImportBase)

    /// The last import of each of `ids`, where one saw it: the base with the
    /// highest step that undo has not taken back.
    private static func lastImported(_ db: Database, ids: [String]) throws -> [UUID: LastImport] {
        var bases: [UUID: LastImport] = [:]
        try forEachRow(db, """
            SELECT todoId, step, updatedAt, fields FROM importBase
            WHERE step < (SELECT coalesce(min(id), 9223372036854775807) FROM undoStep WHERE undoneAt IS NOT NULL) AND todoId IN
            """, ids) { row in
            let step: Int64 = row[1]
            guard let id = UUID(parsing: row[0]), bases[id].map({ $0.step < step }) ?? true else { return }
            bases[id] = (step, ImportBase(updatedAt: Date(millisecondsSince1970: row[2]), data: row[3]))
        }
        return bases
    }
}
