import Foundation
import GRDB
import TodoCore

// MARK: - The undo journal
// Every write made here (add, edit, done, undone, rm, import) records, in its
// own transaction, each todo it touched as a JSON object of its columns before
// and after: one small insert per todo. `undoLast` writes the latest change's
// "before" back. A sync writes through its own statements and is not journaled.

extension AppDatabase {
    /// How many changes the journal keeps; older ones are trimmed, a few dozen at a time.
    package static let undoLimit = 1_000
    private static let undoTrimEvery = 50

    /// Starts a journal entry for a change in the current transaction; returns its number.
    package static func beginUndoStep(_ db: Database, kind: TodoUndo.Kind, at date: Date) throws -> Int64 {
        // A new change ends what redo could bring back, and the import
        // bases an undone import recorded (AppDatabase+Import).
        try db.executeCached(sql: "DELETE FROM importBase WHERE step >= (SELECT min(id) FROM undoStep WHERE undoneAt IS NOT NULL)")
        try db.executeCached(sql: "DELETE FROM undoStep WHERE undoneAt IS NOT NULL")
        // Numbered above every change a sync began sending after: the number
        // of a change undone and dropped is never given again to one the
        // sync cannot have sent (`markSending`).
        try db.executeCached(sql: """
            INSERT INTO undoStep(id, at, kind) SELECT max(
                coalesce((SELECT max(id) FROM undoStep), 0),
                coalesce((SELECT CAST(value AS INTEGER) FROM setting WHERE key = ?), 0)
            ) + 1, ?, ?
            """, arguments: [sentThroughKey, date.millisecondsSince1970, kind.rawValue])
        let step = db.lastInsertedRowID
        if step % Int64(undoTrimEvery) == 0 {
            try db.executeCached(sql: "DELETE FROM undoStep WHERE id <= ?", arguments: [step - Int64(undoLimit)])
        }
        return step
    }

    /// Journals that `item` is about to be written over the row with its id
    /// (if there is one, and `when` holds for it): the row as it is, and the item.
    /// Call it before the write. A todo journaled twice in one change keeps its first "before".
    package static func journalUpdate(_ db: Database, step: Int64, _ item: TodoItem, when condition: String = "1") throws {
        var arguments = item.databaseValues
        _ = arguments.append(contentsOf: [step])
        try db.executeCached(sql: """
            INSERT INTO undoTodo(step, todoId, before, after)
            SELECT ?\(TodoItem.writtenCount + 1), id, \(rowSnapshot), \(boundSnapshot) FROM todo WHERE id = ?1 AND \(condition)
            ON CONFLICT(step, todoId) DO UPDATE SET after = excluded.after
            """, arguments: arguments)
    }

    /// Journals that `item` was added by the change.
    package static func journalInsert(_ db: Database, step: Int64, _ item: TodoItem) throws {
        var arguments = item.databaseValues
        _ = arguments.append(contentsOf: [step])
        try db.executeCached(sql: """
            INSERT INTO undoTodo(step, todoId, after) VALUES (?\(TodoItem.writtenCount + 1), ?1, \(boundSnapshot))
            ON CONFLICT(step, todoId) DO UPDATE SET after = excluded.after
            """, arguments: arguments)
    }

    /// Journals that the todo `id` is about to be deleted. Call it before the delete.
    package static func journalDelete(_ db: Database, step: Int64, id: String) throws {
        try db.executeCached(sql: """
            INSERT INTO undoTodo(step, todoId, before) SELECT ?, id, \(rowSnapshot) FROM todo WHERE id = ?
            ON CONFLICT(step, todoId) DO UPDATE SET after = NULL
            """, arguments: [step, id])
    }

    /// Journals every todo from row `seq` on as added by the change: after a bulk insert.
    package static func journalInserts(_ db: Database, step: Int64, fromSeq seq: Int64) throws {
        try db.execute(sql: "INSERT INTO undoTodo(step, todoId, after) SELECT ?, id, \(rowSnapshot) FROM todo WHERE seq >= ?",
            arguments: [step, seq])
    }

    /// The todo columns a journal snapshot holds, by name: `rowSnapshot`,
    /// `boundSnapshot` and `snapshotColumns` are all made from this list.
    static let snapshotFields = ["createdAt", "updatedAt", "completedAt"]
        + TodoField.unplanned.map(\.column) + TodoField.unplanned.map(\.editedAtColumn)

    /// The plan's columns (`TodoField.planned`, migration 0012 and after):
    /// in the snapshot's `more` object, which is null when they all are, as
    /// they are for most todos. Eight null keys a row made an import of
    /// 1,000,000 todos 1.2x as long.
    static let moreSnapshotFields = TodoField.planned.map(\.column) + TodoField.planned.map(\.editedAtColumn)

    /// A snapshot's JSON: `value(field)` is the SQL of each field's value.
    private static func snapshot(_ value: (String) -> String) -> String {
        let more = "json_object(" + moreSnapshotFields.map { "'\($0)', \(value($0))" }.joined(separator: ", ") + ")"
        let allNull = moreSnapshotFields.map { "\(value($0)) IS NULL" }.joined(separator: " AND ")
        return "json_object(" + snapshotFields.map { "'\($0)', \(value($0))" }.joined(separator: ", ")
            + ", 'more', CASE WHEN \(allNull) THEN NULL ELSE \(more) END)"
    }

    /// A todo row's columns as JSON, in the same form as `boundSnapshot`.
    static let rowSnapshot = snapshot { $0 }

    /// The same JSON object made from `TodoItem.databaseValues` bound as
    /// `?1`…`?31`: each field by its place in `TodoItem.writtenColumns`.
    static let boundSnapshot: String = {
        let written = TodoItem.writtenColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return snapshot { field in "?\(written.firstIndex(of: field)! + 1)" }
    }()
}

// MARK: - Reading the journal

extension AppDatabase {
    /// A journal entry and, for each todo it touched, that todo as it is now
    /// (nil: gone). Changes that changed nothing are left out. The JSON
    /// snapshots are read by SQLite into the columns a todo row has, so
    /// each decodes as a row does: an import of 300,000 todos is that many.
    static func undoStep(_ db: Database, _ row: Row, meter: inout UndoMeter) throws -> (TodoUndo, [UUID: TodoItem?]) {
        let number: Int64 = row[0]
        var changes: [TodoUndo.Change] = []
        var current: [UUID: TodoItem?] = [:]
        let entries = try Row.fetchCursor(db, sql: """
            SELECT \(snapshotColumns("undoTodo.before")), \(snapshotColumns("undoTodo.after")), \(TodoItem.selection)
            FROM undoTodo LEFT JOIN todo ON todo.id = undoTodo.todoId WHERE step = ?
            """, arguments: [number], adapter: snapshotScopes)
        while let entry = try entries.next() {
            meter.advance()
            guard let id = UUID(parsing: entry[0]) else { continue }
            let change = TodoUndo.Change(id: id, before: item(entry.scopes["before"]), after: item(entry.scopes["after"]))
            guard !change.isNoChange else { continue }
            changes.append(change)
            current[id] = .some(item(entry.scopes["current"]))
        }
        // Those it changed first, then those it added, each in order of
        // creation: keys made once, not an ID string per comparison.
        changes = changes.map { change in
            let item = (change.before ?? change.after)!
            return (added: change.before == nil ? 1 : 0, created: item.createdAt, id: item.idString, change: change)
        }
        .sorted { ($0.added, $0.created, $0.id) < ($1.added, $1.created, $1.id) }
        .map(\.change)
        let kind = TodoUndo.Kind(rawValue: row[2]) ?? .update
        return (TodoUndo(number: Int(number), at: Date(millisecondsSince1970: row[1]), kind: kind, changes: changes), current)
    }

    /// A journal snapshot's fields (`rowSnapshot`) as the columns of
    /// `TodoItem.selection`, in its order; the id is the entry's. An entry
    /// journaled before edit times were kept reads them as NULL.
    private static func snapshotColumns(_ json: String) -> String {
        let selected = TodoItem.selection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).dropFirst("todo.".count) }
        return selected.map { column in
            switch column {
            case "id": "undoTodo.todoId"
            case _ where snapshotFields.contains(String(column)): "json_extract(\(json), '$.\(column)')"
            case _ where moreSnapshotFields.contains(String(column)): "json_extract(\(json), '$.more.\(column)')"
            default: "0"  // idPrefixLength: not journaled, never read here
            }
        }.joined(separator: ", ")
    }

    /// Before, after and the todo now: three rows of `TodoItem.selection`'s shape.
    private static let snapshotScopes = ScopeAdapter([
        "before": RangeRowAdapter(0..<TodoItem.selectionCount),
        "after": RangeRowAdapter(TodoItem.selectionCount..<2 * TodoItem.selectionCount),
        "current": RangeRowAdapter(2 * TodoItem.selectionCount..<3 * TodoItem.selectionCount),
    ])

    /// The todo in a row of `selection`'s shape; nil where there is none
    /// (no snapshot, or no todo now: its text is NULL).
    private static func item(_ row: Row?) -> TodoItem? {
        guard let row, (row[1] as String?) != nil, (row[0] as String?) != nil else { return nil }
        return TodoItem(row: row)
    }
}

/// Reports how far an undo or redo got: rows of the journal read, then
/// changes written and rows deleted, every thousand or so.
struct UndoMeter {
    private let report: (TodoUndo.Progress) -> Void
    private var progress: TodoUndo.Progress
    private var reported = 0

    init(_ db: Database, step: Int64, report: @escaping (TodoUndo.Progress) -> Void) throws {
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM undoTodo WHERE step = ?", arguments: [step]) ?? 0
        self.report = report
        // Read, written, and (at most) deleted.
        progress = TodoUndo.Progress(done: 0, total: 3 * rows)
    }

    /// A meter nobody hears.
    init() {
        report = { _ in }
        progress = TodoUndo.Progress(done: 0, total: 0)
    }

    mutating func advance(by count: Int = 1) {
        progress.done = min(progress.done + count, progress.total)
        if progress.done - reported >= 1_000 {
            reported = progress.done
            report(progress)
        }
    }

    mutating func finish() {
        progress.done = progress.total
        report(progress)
    }
}
