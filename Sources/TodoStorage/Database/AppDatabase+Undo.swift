import Foundation
import GRDB
import TodoCore

// MARK: - Reading and undoing

extension AppDatabase {
    /// The changes made here that `undoLast` takes back, the latest first.
    public func undoJournal(limit: Int) throws -> [TodoUndo] {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                var found: [TodoUndo] = []
                let steps = try Row.fetchCursor(db, sql: "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NULL ORDER BY id DESC")
                var unheard = UndoMeter()
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
        force: Bool, after position: Int? = nil, at date: Date, dryRun: Bool = false,
        progress: @escaping (TodoUndo.Progress) -> Void = { _ in }
    ) throws -> TodoUndo {
        try write(large: !dryRun && (try latestStepSize(undone: false) >= 1_000), rollingBack: dryRun) { db in
            let latest = "SELECT id, at, kind FROM undoStep WHERE undoneAt IS NULL ORDER BY id DESC LIMIT 1"
            while let row = try Row.fetchOne(db, sql: latest) {
                let number: Int64 = row[0]
                if let position, number <= Int64(position) { throw TodoError.nothingToUndoInView }
                var meter = try UndoMeter(db, step: number, report: progress)
                let (step, current) = try Self.undoStep(db, row, meter: &meter)
                // A change that changed nothing (done on a done todo) is passed over.
                guard !step.changes.isEmpty else {
                    try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [number])
                    continue
                }
                if !force, let changed = step.changes.first(where: { $0.isOverwritten(by: current[$0.id] ?? nil) }) {
                    throw Self.conflict(step, changed, current)
                }
                var undone = step
                // Nil only on a database no sync has sent from since sends were
                // recorded: then the sync base says what the server may hold.
                let mayBeSent = try Self.sentThroughStep(db).map { $0 >= number }
                undone.restored = try Self.write(step.changes, over: current, at: date, db, mayBeSent: mayBeSent, work: bulkInsertWork, meter: &meter)
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
            var meter = try UndoMeter(db, step: row[0], report: progress)
            let (step, current) = try Self.undoStep(db, row, meter: &meter)
            let reversed = step.reversed
            if let changed = reversed.changes.first(where: { $0.isOverwritten(by: current[$0.id] ?? nil) }) {
                throw Self.conflict(step, changed, current)
            }
            var redone = step
            redone.restored = try Self.write(reversed.changes, over: current, at: date, db, mayBeSent: nil, work: bulkInsertWork, meter: &meter)
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
    /// Runs `body` in one transaction, committed (or, `rollingBack`, rolled
    /// back: a dry run that did all the work and leaves nothing).
    private func write<T>(large: Bool, rollingBack: Bool = false, _ body: (Database) throws -> T) throws -> T {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try Self.withBulkWriting(db, if: large) {
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return rollingBack ? .rollback : .commit
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
    /// server may hold it even where no answer came to say so. False: no
    /// sync sent anything since, so nobody saw it, whatever the server holds
    /// (an earlier undo may have put back a value the server still has).
    /// Nil: not known (no send recorded yet); the sync base decides.
    private static func write(
        _ changes: [TodoUndo.Change], over current: [UUID: TodoItem?], at date: Date, _ db: Database,
        mayBeSent: Bool?, work: BulkInsertWork, meter: inout UndoMeter
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
            let published: TodoItem? = switch (edited, mayBeSent) {
            case (false, _), (true, false?): nil
            case (true, true?): change.after
            case (true, nil): try published(db, id: id)
            }
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
        if try prefersBulkInsert(db, count: inserted.count) {
            try insertMany(db, inserted, work: work)
        } else {
            for item in inserted { try insert(db, item) }
        }
        meter.finish()
        return written
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

    static let sentThroughKey = "undoSentThroughStep"

    /// The latest journal step a sync began sending after (nil: no sync sent anything yet).
    private static func sentThroughStep(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM setting WHERE key = ?", arguments: [sentThroughKey])
    }

    /// The fields of todo `id` as a server held them at its last sync (its
    /// sync base), if it was ever synced: what undo compares with to tell a
    /// change a sync already sent from one nobody else saw.
    private static func published(_ db: Database, id: String) throws -> TodoItem? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(TodoField.allCases.map(\.column).joined(separator: ", ")) FROM syncBase WHERE todoId = ?
            """), arguments: [id]), let uuid = UUID(parsing: id) else { return nil }
        var item = TodoItem(id: uuid, text: "", createdAt: Date(timeIntervalSince1970: 0))
        for (index, field) in TodoField.allCases.enumerated() { item.set(field, in: row, at: index) }
        return item
    }
}
