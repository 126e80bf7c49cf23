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
                while found.count < limit, let row = try steps.next() {
                    let step = try Self.undoStep(db, row).0
                    if !step.changes.isEmpty { found.append(step) }
                }
                return found
            }
        }
    }

    /// Takes back the latest change made here (see `TodoStorage.undoLast`).
    public func undoLatest(force: Bool, after position: Int? = nil, at date: Date) throws -> TodoUndo {
        try write { db in
            let latest = "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NULL ORDER BY id DESC LIMIT 1"
            while let row = try Row.fetchOne(db, sql: latest) {
                let number: Int64 = row[0]
                if let position, number <= Int64(position) { throw TodoError.nothingToUndoInView }
                let (step, current) = try Self.undoStep(db, row)
                // A change that changed nothing (done on a done todo) is passed over.
                guard !step.changes.isEmpty else {
                    try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [number])
                    continue
                }
                if !force, let changed = step.changes.first(where: { !$0.isCurrent(current[$0.id] ?? nil) }) {
                    throw Self.conflict(step, changed, current)
                }
                var undone = step
                undone.restored = try Self.write(step.changes, over: current, at: date, db)
                // Kept, marked, for redo.
                try db.execute(sql: "UPDATE undoStep SET undoneAt = ? WHERE id = ?", arguments: [date.millisecondsSince1970, number])
                return undone
            }
            throw position == nil ? TodoError.nothingToUndo : TodoError.nothingToUndoInView
        }
    }

    /// Brings back the change undo took back last (see `TodoStorage.redoLast`).
    public func redoLatest(at date: Date) throws -> TodoUndo {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NOT NULL ORDER BY id LIMIT 1") else {
                throw TodoError.nothingToRedo
            }
            let (step, current) = try Self.undoStep(db, row)
            let reversed = step.reversed
            if let changed = reversed.changes.first(where: { !$0.isCurrent(current[$0.id] ?? nil) }) {
                throw Self.conflict(step, changed, current)
            }
            var redone = step
            redone.restored = try Self.write(reversed.changes, over: current, at: date, db)
            try db.execute(sql: "UPDATE undoStep SET undoneAt = NULL WHERE id = ?", arguments: [step.number])
            return redone
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
    private static func write(_ changes: [TodoUndo.Change], over current: [UUID: TodoItem?], at date: Date, _ db: Database) throws -> [TodoItem] {
        var written: [TodoItem] = []
        for change in changes {
            let id = change.id.lowercasedString
            let now = current[change.id].flatMap { $0 }
            guard let item = change.restoring(onto: now, published: try published(db, id: id), at: date) else {
                if now != nil { try delete(db, id: id) }
                continue
            }
            written.append(item)
            if now != nil {
                try db.executeCached(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: item.databaseValues)
            } else {
                try insert(db, item)
            }
        }
        return written
    }

    /// The refusal of a change whose todo `changed` was changed since by something not journaled.
    private static func conflict(_ step: TodoUndo, _ changed: TodoUndo.Change, _ current: [UUID: TodoItem?]) -> TodoError {
        let item = current[changed.id].flatMap { $0 } ?? changed.after ?? changed.before
        return .undoConflict(change: step.summary, text: item?.text ?? "", id: String(changed.id.lowercasedString.prefix(8)))
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
    /// (nil: gone). Changes that changed nothing are left out.
    private static func undoStep(_ db: Database, _ row: Row) throws -> (TodoUndo, [UUID: TodoItem?]) {
        let number: Int64 = row[0]
        var changes: [TodoUndo.Change] = []
        var current: [UUID: TodoItem?] = [:]
        let entries = try Row.fetchCursor(db, sql: """
            SELECT todoId, before, after, (SELECT \(rowSnapshot) FROM todo WHERE todo.id = undoTodo.todoId)
            FROM undoTodo WHERE step = ?
            """, arguments: [number])
        while let entry = try entries.next() {
            guard let id = UUID(parsing: entry[0]) else { continue }
            let change = TodoUndo.Change(
                id: id, before: try Snapshot.item(entry[1], id: id), after: try Snapshot.item(entry[2], id: id)
            )
            guard !change.isNoChange else { continue }
            changes.append(change)
            current[id] = .some(try Snapshot.item(entry[3], id: id))
        }
        // Those it changed first, then those it added, each in order of creation.
        changes.sort { lhs, rhs in
            let (left, right) = ((lhs.before ?? lhs.after)!, (rhs.before ?? rhs.after)!)
            if (lhs.before == nil) != (rhs.before == nil) { return lhs.before != nil }
            return (left.createdAt, left.idString) < (right.createdAt, right.idString)
        }
        let kind = TodoUndo.Kind(rawValue: row[2]) ?? .update
        return (TodoUndo(number: Int(number), at: Date(millisecondsSince1970: row[1]), kind: kind, changes: changes), current)
    }

    /// A todo's columns as the journal keeps them (`rowSnapshot`).
    private struct Snapshot: Decodable {
        private static func time(_ milliseconds: Int64?) -> Date? {
            milliseconds.map(Date.init(millisecondsSince1970:))
        }

        var text: String
        var isDone: Int
        var createdAt: Int64
        var updatedAt: Int64
        var completedAt: Int64?
        var due: String?
        var priority: Int?
        var tags: String?
        var note: String?
        var recurrence: String?
        // Missing from entries journaled before edit times were kept.
        var textEditedAt: Int64?
        var doneEditedAt: Int64?
        var dueEditedAt: Int64?
        var priorityEditedAt: Int64?
        var tagsEditedAt: Int64?
        var noteEditedAt: Int64?
        var recurrenceEditedAt: Int64?

        /// The todo a snapshot holds; nil for no snapshot.
        static func item(_ json: String?, id: UUID) throws -> TodoItem? {
            guard let json else { return nil }
            let values = try JSONDecoder().decode(Snapshot.self, from: Data(json.utf8))
            return TodoItem(
                id: id,
                text: values.text,
                isDone: values.isDone != 0,
                createdAt: Date(millisecondsSince1970: values.createdAt),
                updatedAt: Date(millisecondsSince1970: values.updatedAt),
                completedAt: values.completedAt.map(Date.init(millisecondsSince1970:)),
                due: values.due.flatMap(TodoDue.init(text:)),
                priority: values.priority.flatMap(TodoPriority.init(rank:)),
                tags: values.tags.map(TagList.decode) ?? [],
                note: values.note,
                recurrence: values.recurrence.flatMap(TodoRepeat.init(parsing:)),
                editedAt: FieldTimes(
                    text: Self.time(values.textEditedAt), done: Self.time(values.doneEditedAt), due: Self.time(values.dueEditedAt),
                    priority: Self.time(values.priorityEditedAt), tags: Self.time(values.tagsEditedAt),
                    note: Self.time(values.noteEditedAt), recurrence: Self.time(values.recurrenceEditedAt)
                )
            )
        }
    }
}
