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
        // A new change ends what redo could bring back.
        try db.executeCached(sql: "DELETE FROM undoStep WHERE undoneAt IS NOT NULL")
        try db.executeCached(sql: "INSERT INTO undoStep(at, kind) VALUES (?, ?)",
            arguments: [date.millisecondsSince1970, kind.rawValue])
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
            SELECT ?20, id, \(rowSnapshot), \(boundSnapshot) FROM todo WHERE id = ?1 AND \(condition)
            ON CONFLICT(step, todoId) DO UPDATE SET after = excluded.after
            """, arguments: arguments)
    }

    /// Journals that `item` was added by the change.
    package static func journalInsert(_ db: Database, step: Int64, _ item: TodoItem) throws {
        var arguments = item.databaseValues
        _ = arguments.append(contentsOf: [step])
        try db.executeCached(sql: """
            INSERT INTO undoTodo(step, todoId, after) VALUES (?20, ?1, \(boundSnapshot))
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

    /// A todo row's columns as JSON, in the same form as `boundSnapshot`.
    static let rowSnapshot = """
        json_object('text', text, 'isDone', isDone, 'createdAt', createdAt, 'updatedAt', updatedAt, \
        'completedAt', completedAt, 'due', due, 'priority', priority, 'tags', tags, 'note', note, 'recurrence', recurrence, \
        'textEditedAt', textEditedAt, 'doneEditedAt', doneEditedAt, 'dueEditedAt', dueEditedAt, \
        'priorityEditedAt', priorityEditedAt, 'tagsEditedAt', tagsEditedAt, 'noteEditedAt', noteEditedAt, \
        'recurrenceEditedAt', recurrenceEditedAt)
        """

    /// The same JSON object made from `TodoItem.databaseValues` bound as `?1`…`?19`.
    static let boundSnapshot = """
        json_object('text', ?2, 'isDone', ?4, 'createdAt', ?5, 'updatedAt', ?6, \
        'completedAt', ?7, 'due', ?8, 'priority', ?9, 'tags', ?10, 'note', ?11, 'recurrence', ?12, \
        'textEditedAt', ?13, 'doneEditedAt', ?14, 'dueEditedAt', ?15, 'priorityEditedAt', ?16, \
        'tagsEditedAt', ?17, 'noteEditedAt', ?18, 'recurrenceEditedAt', ?19)
        """
}

// MARK: - Reading and undoing

extension AppDatabase {
    /// The changes made here that `undoLast` takes back, the latest first.
    public func undoJournal(limit: Int) throws -> [TodoUndo] {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                var found: [TodoUndo] = []
                let steps = try Row.fetchCursor(db, sql: "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NULL ORDER BY id DESC")
                var unheard = Meter()
                while found.count < limit, let row = try steps.next() {
                    let step = try Self.undoStep(db, row, meter: &unheard).0
                    if !step.changes.isEmpty { found.append(step) }
                }
                return found
            }
        }
    }

    /// Takes back the latest change made here (see `TodoStorage.undoLast`).
    public func undoLatest(
        force: Bool, after position: Int? = nil, at date: Date, progress: @escaping (TodoUndo.Progress) -> Void = { _ in }
    ) throws -> TodoUndo {
        try write(large: try latestStepSize(undone: false) >= 1_000) { db in
            let latest = "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NULL ORDER BY id DESC LIMIT 1"
            while let row = try Row.fetchOne(db, sql: latest) {
                let number: Int64 = row[0]
                if let position, number <= Int64(position) { throw TodoError.nothingToUndoInView }
                var meter = try Meter(db, step: number, report: progress)
                let (step, current) = try Self.undoStep(db, row, meter: &meter)
                // A change that changed nothing (done on a done todo) is passed over.
                guard !step.changes.isEmpty else {
                    try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [number])
                    continue
                }
                if !force, let changed = step.changes.first(where: { !$0.isCurrent(current[$0.id] ?? nil) }) {
                    throw Self.conflict(step, changed, current)
                }
                var undone = step
                let mayBeSent = try Self.sentThroughStep(db) >= number
                undone.restored = try Self.write(step.changes, over: current, at: date, db, mayBeSent: mayBeSent, meter: &meter)
                // Kept, marked, for redo.
                try db.execute(sql: "UPDATE undoStep SET undoneAt = ? WHERE id = ?", arguments: [date.millisecondsSince1970, number])
                return undone
            }
            throw position == nil ? TodoError.nothingToUndo : TodoError.nothingToUndoInView
        }
    }

    /// Brings back the change undo took back last (see `TodoStorage.redoLast`).
    public func redoLatest(at date: Date, progress: @escaping (TodoUndo.Progress) -> Void = { _ in }) throws -> TodoUndo {
        try write(large: try latestStepSize(undone: true) >= 1_000) { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NOT NULL ORDER BY id LIMIT 1") else {
                throw TodoError.nothingToRedo
            }
            var meter = try Meter(db, step: row[0], report: progress)
            let (step, current) = try Self.undoStep(db, row, meter: &meter)
            let reversed = step.reversed
            if let changed = reversed.changes.first(where: { !$0.isCurrent(current[$0.id] ?? nil) }) {
                throw Self.conflict(step, changed, current)
            }
            var redone = step
            redone.restored = try Self.write(reversed.changes, over: current, at: date, db, mayBeSent: false, meter: &meter)
            try db.execute(sql: "UPDATE undoStep SET undoneAt = NULL WHERE id = ?", arguments: [step.number])
            return redone
        }
    }

    /// How many todos the change undo (or, `undone`, redo) would take next touched.
    private func latestStepSize(undone: Bool) throws -> Int {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM undoTodo WHERE step = (
                        SELECT \(undone ? "min" : "max")(id) FROM undoStep WHERE undoneAt IS \(undone ? "NOT NULL" : "NULL"))
                    """) ?? 0
            }
        }
    }

    /// `write`, a large change (an import taken back) written the way a bulk
    /// load is cheapest (`withBulkWriting`): as the import itself was.
    private func write<T>(large: Bool, _ body: (Database) throws -> T) throws -> T {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try Self.withBulkWriting(db, if: large) {
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
        }
    }

    /// The number of the latest change undo could take back (0 for none).
    public func latestUndoStep() throws -> Int {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Int.fetchOne(db, sql: "SELECT max(id) FROM undoStep WHERE undoneAt IS NULL") ?? 0
            }
        }
    }

    /// Writes back each change's "before" over the todo as it is now
    /// (`TodoUndo.Change.restoring`); returns the todos written.
    /// `mayBeSent`: a sync began sending after the change was made; the
    /// server may hold it even where no answer came to say so.
    private static func write(
        _ changes: [TodoUndo.Change], over current: [UUID: TodoItem?], at date: Date, _ db: Database,
        mayBeSent: Bool, meter: inout Meter
    ) throws -> [TodoItem] {
        var written: [TodoItem] = []
        // What an undone import takes away, or a redone one brings back: written together.
        var deleted: [String] = []
        var inserted: [TodoItem] = []
        for change in changes {
            meter.advance()
            let id = change.id.lowercasedString
            let now = current[change.id].flatMap { $0 }
            // Only a todo the change edited (not added, not deleted) asks what a sync sent of it.
            let edited = change.before != nil && change.after != nil && now != nil
            let published = !edited ? nil : mayBeSent ? change.after : try published(db, id: id)
            guard let item = change.restoring(onto: now, published: published, at: date) else {
                if now != nil { deleted.append(id) }
                continue
            }
            written.append(item)
            if now != nil {
                try db.executeCached(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: item.databaseValues)
            } else {
                inserted.append(item)
            }
        }
        try deleteMany(db, ids: deleted) { meter.advance(by: $0) }
        let existing = inserted.isEmpty ? 0 : try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0
        if prefersBulkInsert(count: inserted.count, existing: existing) {
            try insertMany(db, inserted, queueForSync: true)
        } else {
            for item in inserted { try insert(db, item) }
        }
        meter.finish()
        return written
    }

    /// Reports how far an undo or redo got: rows of the journal read, then
    /// changes written and rows deleted, every thousand or so.
    struct Meter {
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

    /// The refusal of a change whose todo `changed` was changed since by something not journaled.
    private static func conflict(_ step: TodoUndo, _ changed: TodoUndo.Change, _ current: [UUID: TodoItem?]) -> TodoError {
        let item = current[changed.id].flatMap { $0 } ?? changed.after ?? changed.before
        return .undoConflict(change: step.summary, text: item?.text ?? "", id: String(changed.id.lowercasedString.prefix(8)))
    }

    /// Marks that a sync is about to send what is queued here: every change
    /// journaled so far may be on a server from now on, even if the answer
    /// that would record it never comes (a connection cut). Undo then takes
    /// such a change back as the newest edit, never as one older than what
    /// the server may hold.
    public func markSending() throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO setting(key, value) SELECT ?, coalesce(max(id), 0) FROM undoStep WHERE true
                ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """, arguments: [Self.sentThroughKey])
        }
    }

    private static let sentThroughKey = "undoSentThroughStep"

    /// The latest journal step a sync began sending after (0: none).
    private static func sentThroughStep(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM setting WHERE key = ?", arguments: [sentThroughKey]) ?? 0
    }

    /// The fields of todo `id` as a server held them at its last sync (its
    /// sync base), if it was ever synced: what undo compares with to tell a
    /// change a sync already sent from one nobody else saw.
    private static func published(_ db: Database, id: String) throws -> TodoItem? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT text, isDone, due, priority, tags, note, recurrence FROM syncBase WHERE todoId = ?
            """), arguments: [id]), let uuid = UUID(parsing: id) else { return nil }
        return TodoItem(
            id: uuid, text: row[0], isDone: row[1], createdAt: Date(timeIntervalSince1970: 0),
            due: (row[2] as String?).flatMap(TodoDue.init(text:)),
            priority: (row[3] as Int?).flatMap(TodoPriority.init(rank:)),
            tags: (row[4] as String?).map(TagList.decode) ?? [],
            note: row[5],
            recurrence: (row[6] as String?).flatMap(TodoRepeat.init(parsing:))
        )
    }

    /// A journal entry and, for each todo it touched, that todo as it is now
    /// (nil: gone). Changes that changed nothing are left out. The JSON
    /// snapshots are read by SQLite into the columns a todo row has, so
    /// each decodes as a row does: an import of 300,000 todos is that many.
    private static func undoStep(_ db: Database, _ row: Row, meter: inout Meter) throws -> (TodoUndo, [UUID: TodoItem?]) {
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
        let fields = [
            "text", "isDone", "createdAt", "updatedAt", "completedAt", nil, "due", "priority", "tags", "note", "recurrence",
            "textEditedAt", "doneEditedAt", "dueEditedAt", "priorityEditedAt", "tagsEditedAt", "noteEditedAt", "recurrenceEditedAt",
        ]
        return (["undoTodo.todoId"] + fields.map { field in field.map { "json_extract(\(json), '$.\($0)')" } ?? "0" })
            .joined(separator: ", ")
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
