import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: Writes
// Each method is one transaction that keeps the table's invariants: the
// search index (by trigger) and every short ID unique (here), and journals
// the change for undo (AppDatabase+Undo).

extension AppDatabase {
    /// Stores a new todo; undo deletes it.
    public func insertTodo(_ item: TodoItem) throws {
        try write { db in
            try Self.insert(db, item)
            try Self.journalInsert(db, step: Self.beginUndoStep(db, kind: .add, at: now()), item)
        }
    }

    /// Stores new values for existing todos; fails with `.notFound`, writing
    /// nothing, if one has been deleted meanwhile. Undo writes back the old
    /// values and deletes the new todos this added.
    public func updateTodos(_ items: [TodoItem], addingIfAbsent new: [TodoItem] = []) throws {
        try write { db in
            let step = try Self.beginUndoStep(db, kind: .update, at: now())
            for item in new where try !Self.exists(db, id: item.idString) {
                try Self.insert(db, item)
                try Self.journalInsert(db, step: step, item)
            }
            for item in items {
                try Self.journalUpdate(db, step: step, item)
                try db.executeCached(
                    sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1",
                    arguments: item.databaseValues
                )
                if db.changesCount == 0 {
                    throw TodoError.notFound(item.idString)
                }
            }
        }
    }

    /// Deletes todos; fails with `.notFound`, deleting nothing, if one is
    /// gone already. Undo stores them again, ids and all.
    public func deleteTodos(ids: [UUID]) throws {
        try write { db in
            let step = try Self.beginUndoStep(db, kind: .delete, at: now())
            for id in ids {
                try Self.journalDelete(db, step: step, id: id.lowercasedString)
                try Self.delete(db, id: id.lowercasedString)
            }
        }
    }

    /// Stores a named setting.
    public func setSetting(_ key: String, to value: String) throws {
        try write { db in
            try db.executeCached(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value]
            )
        }
    }

    package func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try StorageError.wrap(path: path) {
            try dbWriter.write(updates)
        }
    }
}

// MARK: - Short IDs

extension AppDatabase {
    /// Inserts a row and lengthens the short IDs of its neighbours in ID order
    /// if they now share more with it: the only IDs a new one can make ambiguous.
    package static func insert(_ db: Database, _ item: TodoItem) throws {
        let id = item.idString
        let previous = try neighbour(db, of: id, before: true)
        let next = try neighbour(db, of: id, before: false)
        var arguments = item.databaseValues
        _ = arguments.append(contentsOf: [TodoID.uniquePrefixLength(of: id, previous: previous?.id, next: next?.id)])
        try db.executeCached(
            sql: "INSERT INTO todo (\(TodoItem.writtenColumns), idPrefixLength) VALUES (\(TodoItem.insertMarks))",
            arguments: arguments
        )
        for neighbour in [previous, next].compactMap({ $0 }) {
            let needed = TodoID.commonPrefixLength(neighbour.id, id) + 1
            if needed > neighbour.length {
                try setPrefixLength(db, id: neighbour.id, to: needed)
            }
        }
    }

    package static func exists(_ db: Database, id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM todo WHERE id = ?"), arguments: [id]) ?? false
    }

    /// Deletes a row and lets its neighbours' short IDs shrink if they can.
    package static func delete(_ db: Database, id: String) throws {
        let previous = try neighbour(db, of: id, before: true)
        let next = try neighbour(db, of: id, before: false)
        try db.executeCached(sql: "DELETE FROM todo WHERE id = ?", arguments: [id])
        guard db.changesCount > 0 else {
            throw TodoError.notFound(id)
        }
        if let previous {
            let before = try neighbour(db, of: previous.id, before: true)
            try setPrefixLength(db, id: previous.id, to: TodoID.uniquePrefixLength(of: previous.id, previous: before?.id, next: next?.id))
        }
        if let next {
            let after = try neighbour(db, of: next.id, before: false)
            try setPrefixLength(db, id: next.id, to: TodoID.uniquePrefixLength(of: next.id, previous: previous?.id, next: after?.id))
        }
    }

    /// Deletes rows by id: one by one for a few (`delete`); for many (an
    /// import taken back), a few hundred a statement and every short ID
    /// recomputed in one pass after, instead of neighbours looked up per row.
    /// `deleted` hears how many rows went, as they go.
    package static func deleteMany(_ db: Database, ids: [String], deleted: (Int) -> Void = { _ in }) throws {
        guard try prefersBulkInsert(db, count: ids.count) else {
            for id in ids { try delete(db, id: id) }
            deleted(ids.count)
            return
        }
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            let chunk = Array(ids[start..<min(start + chunkSize, ids.count)])
            try executeForEach(db, "DELETE FROM todo WHERE id IN", chunk)
            deleted(chunk.count)
        }
        try recomputePrefixLengths(db)
    }

    /// Recomputes every short ID in one pass over the ID index, writing only
    /// those that change: used after bulk inserts.
    static func recomputePrefixLengths(_ db: Database) throws {
        let cursor = try Row.fetchCursor(db, sql: "SELECT seq, id, idPrefixLength FROM todo ORDER BY id")
        var changes: [(seq: Int64, length: Int)] = []
        var previous: String?
        var current: (seq: Int64, id: String, length: Int)?
        func settle(next: String?) {
            guard let row = current else { return }
            let length = TodoID.uniquePrefixLength(of: row.id, previous: previous, next: next)
            if length != row.length {
                changes.append((row.seq, length))
            }
            previous = row.id
        }
        while let row = try cursor.next() {
            let id: String = row[1]
            settle(next: id)
            current = (row[0], id, row[2])
        }
        settle(next: nil)
        // Written after the scan: a table is not changed under a running cursor.
        let update = try db.cachedStatement(sql: "UPDATE todo SET idPrefixLength = ? WHERE seq = ?")
        for change in changes {
            try update.execute(arguments: [change.length, change.seq])
        }
    }

    private static func neighbour(_ db: Database, of id: String, before: Bool) throws -> (id: String, length: Int)? {
        let sql = before
            ? "SELECT id, idPrefixLength FROM todo WHERE id < ? ORDER BY id DESC LIMIT 1"
            : "SELECT id, idPrefixLength FROM todo WHERE id > ? ORDER BY id LIMIT 1"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) else { return nil }
        return (row[0], row[1])
    }

    private static func setPrefixLength(_ db: Database, id: String, to length: Int) throws {
        try db.executeCached(sql: "UPDATE todo SET idPrefixLength = ? WHERE id = ?", arguments: [length, id])
    }
}

extension Database {
    /// Executes SQL compiled once per connection. GRDB parses and authorizes
    /// SQL text on every `execute(sql:)`, which dominates bulk writes such as
    /// a sync pulling thousands of todos.
    package func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
