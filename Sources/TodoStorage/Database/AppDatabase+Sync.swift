import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: Sync
// The bookkeeping of `todo sync` (tables from 0002_sync.sql). Each step of a
// sync is one transaction holding the todo and the bookkeeping that describes it.

extension AppDatabase: SyncStore {
    public func pendingChanges() async throws -> [(todoId: UUID, rev: Int64)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT todoId, rev FROM syncPending ORDER BY rev").compactMap { row in
                UUID(parsing: row[0]).map { ($0, row[1]) }
            }
        }
    }

    public func pendingCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPending") ?? 0 }
    }

    public func markCreateInFlight(_ todoId: UUID) async throws {
        try write { db in
            try db.executeCached(sql: "INSERT OR IGNORE INTO syncCreateInFlight(todoId) VALUES (?)", arguments: [todoId.lowercasedString])
        }
    }

    public func createsInFlight() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncCreateInFlight") ?? 0 }
    }

    public func baseCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncBase") ?? 0 }
    }

    public func syncRows(todoIds: [UUID]) async throws -> [UUID: SyncRow] {
        guard !todoIds.isEmpty else { return [:] }
        return try read { db in
            // Empty tables (as in a first sync) are not looked up 100,000 times.
            let (noBases, noTodos) = (try Self.isEmpty(db, "syncBase"), try Self.isEmpty(db, "todo"))
            if noBases, noTodos, try Self.isEmpty(db, "syncPending") { return [:] }
            let keys = todoIds.map { $0.lowercasedString }
            var bases: [String: SyncBase] = [:]
            if !noBases {
                try Self.forEachRow(db, "SELECT * FROM syncBase WHERE todoId IN", keys) { row in
                    if let base = SyncBase(row: row) { bases[row["todoId"]] = base }
                }
            }
            var locals: [String: TodoItem] = [:]
            if !noTodos {
                try Self.forEachRow(db, "SELECT \(TodoItem.selection) FROM todo WHERE id IN", keys) { row in
                    if let item = TodoItem(row: row) { locals[row[0]] = item }
                }
            }
            let revs = try Self.pendingRevs(db, keys)
            var rows: [UUID: SyncRow] = [:]
            for (id, key) in zip(todoIds, keys) {
                let base = bases[key], local = locals[key], rev = revs[key]
                if base != nil || local != nil || rev != nil {
                    rows[id] = SyncRow(todoId: id, base: base, local: local, pendingRev: rev)
                }
            }
            return rows
        }
    }

    public func allBases() async throws -> [SyncBase] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM syncBase").compactMap(SyncBase.init(row:))
        }
    }

    public func bases(remoteIds: [String]) async throws -> [String: SyncBase] {
        try read { db in
            var bases: [String: SyncBase] = [:]
            try Self.forEachRow(db, "SELECT * FROM syncBase WHERE remoteId IN", remoteIds) { row in
                // One base per remote id, as a lookup by it would find.
                if bases[row["remoteId"]] == nil, let base = SyncBase(row: row) { bases[base.remoteId] = base }
            }
            return bases
        }
    }

    public func apply(_ writes: [SyncWrite]) async throws -> [Bool] {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try Self.withBulkWriting(db, if: writes.count >= 1_000) {
                    var applied: [Bool] = []
                    try db.inTransaction(.immediate) {
                        applied = try Self.apply(db, writes)
                        return .commit
                    }
                    return applied
                }
            }
        }
    }

    /// Applies steps one by one, or, when they insert many new todos (a first
    /// sync), those inserts in bulk: the same rows and bookkeeping either way.
    private static func apply(_ db: Database, _ writes: [SyncWrite]) throws -> [Bool] {
        // Counted in place: filtering would copy every write.
        var inserts = 0
        for index in writes.indices {
            if case .save = writes[index].todo { inserts += 1 }
        }
        guard inserts >= 1_000 else { return try writes.map { try apply(db, $0) } }
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0
        let keys = writes.map { $0.todoId.lowercasedString }
        guard prefersBulkInsert(count: inserts, existing: existing), isStrictlyIncreasing(keys) || Set(keys).count == keys.count else {
            return try writes.map { try apply(db, $0) }
        }
        let present = existing == 0 ? [] : try existingIds(db, keys)
        let revs = try pendingRevs(db, keys)
        var applied: [Bool] = []
        applied.reserveCapacity(writes.count)
        // Positions and items of the new todos: no copy of each write.
        var new: [Int] = []
        var items: [TodoItem] = []
        for index in writes.indices {
            let key = keys[index]
            if case let .save(item) = writes[index].todo, !present.contains(key) {
                let current = revs[key] == writes[index].expectedRev
                if current {
                    new.append(index)
                    items.append(item)
                }
                applied.append(current)
            } else {
                applied.append(try apply(db, writes[index]))
            }
        }
        // Not queued as local changes: they came from the server, and each
        // step's bookkeeping below clears its todo from the queue anyway.
        try insertMany(db, items, ids: new.map { keys[$0] }, queueForSync: false)
        let setBase = try ChunkedInsert(db, into: "syncBase(todoId, remoteId, text, isDone, remoteVersion)", columns: 5, then: setBaseConflictClause)
        let inFlight = try Set(String.fetchAll(db, sql: "SELECT todoId FROM syncCreateInFlight"))
        // The usual pulled todo has only its base to store: those are stored
        // together, in order with the others' bookkeeping.
        var bases: [Int] = []
        func storeBases() throws {
            try setBase.insert(count: bases.count) { statement, row, first in
                guard case let .set(base) = writes[bases[row]].base else { return }
                statement.bind(first, keys[bases[row]])
                statement.bind(first + 1, base.remoteId)
                statement.bind(first + 2, base.fields.text)
                statement.bind(first + 3, base.fields.isDone)
                statement.bind(first + 4, base.remoteVersion.map(Int64.init))
            }
            bases.removeAll(keepingCapacity: true)
        }
        for index in new {
            let key = keys[index]
            if writes[index].conflicts.isEmpty, writes[index].expectedRev == nil, !inFlight.contains(key),
               case .set = writes[index].base {
                bases.append(index)
            } else {
                try storeBases()
                try record(db, writes[index], key: key, inFlight: inFlight.contains(key), pending: writes[index].expectedRev != nil)
            }
        }
        try storeBases()
        return applied
    }

    private static func apply(_ db: Database, _ step: SyncWrite) throws -> Bool {
        let key = step.todoId.lowercasedString
        let rev = try Int64.fetchOne(db.cachedStatement(sql: "SELECT rev FROM syncPending WHERE todoId = ?"), arguments: [key])
        guard rev == step.expectedRev else { return false }
        let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM todo WHERE id = ?"), arguments: [key]) ?? false
        switch step.todo {
        case .keep:
            break
        case let .save(item) where exists:
            try db.executeCached(sql: """
                    UPDATE todo SET text = ?2, searchText = ?3, isDone = ?4,
                        createdAt = ?5, updatedAt = ?6, completedAt = ?7
                    WHERE id = ?1
                    """,
                arguments: item.databaseValues
            )
        case let .save(item):
            try insert(db, item)
        case .delete:
            if exists { try delete(db, id: key) }
        }
        // The triggers queued our own write: it is synced by this very step.
        try record(db, step, key: key, inFlight: true, pending: true)
        return true
    }

    /// A step's bookkeeping once its todo is written: its create is no longer
    /// in flight, nothing is queued for it, its base and conflicts are kept.
    /// `inFlight` and `pending` false say there is no such row to delete.
    private static func record(_ db: Database, _ step: SyncWrite, key: String, inFlight: Bool, pending: Bool) throws {
        if inFlight {
            try db.executeCached(sql: "DELETE FROM syncCreateInFlight WHERE todoId = ?", arguments: [key])
        }
        if pending {
            try db.executeCached(sql: "DELETE FROM syncPending WHERE todoId = ?", arguments: [key])
        }
        switch step.base {
        case .keep:
            break
        case let .set(base):
            try db.cachedStatement(sql: setBaseSQL)
                .execute(arguments: [key, base.remoteId, base.fields.text, base.fields.isDone, base.remoteVersion])
        case .remove:
            try db.executeCached(sql: "DELETE FROM syncBase WHERE todoId = ?", arguments: [key])
        }
        for conflict in step.conflicts {
            try db.executeCached(sql: "INSERT INTO syncConflict(at, todoId, field, localValue, remoteValue, winner) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    conflict.at.millisecondsSince1970, key, conflict.field,
                    conflict.localValue, conflict.remoteValue, conflict.winner.rawValue,
                ]
            )
        }
    }

    private static let setBaseSQL = """
        INSERT INTO syncBase(todoId, remoteId, text, isDone, remoteVersion) VALUES (?, ?, ?, ?, ?)
        \(setBaseConflictClause)
        """

    private static let setBaseConflictClause = """
        ON CONFLICT(todoId) DO UPDATE SET remoteId = excluded.remoteId, text = excluded.text,
            isDone = excluded.isDone, remoteVersion = excluded.remoteVersion
        """

    /// The queued rev of each of these todos that has one.
    private static func pendingRevs(_ db: Database, _ keys: [String]) throws -> [String: Int64] {
        var revs: [String: Int64] = [:]
        guard try !isEmpty(db, "syncPending") else { return revs }
        try forEachRow(db, "SELECT todoId, rev FROM syncPending WHERE todoId IN", keys) { row in
            revs[row[0]] = row[1]
        }
        return revs
    }

    public func syncSetting(_ key: String) async throws -> String? {
        try setting(key)
    }

    public func setSyncSettings(_ values: [String: String?]) async throws {
        try write { db in
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                if let value {
                    try db.executeCached(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        arguments: [key, value]
                    )
                } else {
                    try db.executeCached(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
                }
            }
        }
    }

    public func conflictHistory(limit: Int) async throws -> [SyncConflict] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT todoId, field, localValue, remoteValue, winner, at FROM syncConflict ORDER BY id DESC LIMIT ?",
                arguments: [limit]
            ).compactMap { row in
                guard let id = UUID(parsing: row[0]), let winner = SyncConflict.Side(rawValue: row[4]) else { return nil }
                return SyncConflict(
                    todoId: id, field: row[1], localValue: row[2], remoteValue: row[3],
                    winner: winner, at: Date(millisecondsSince1970: row[5])
                )
            }
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try StorageError.wrap(path: path) { try dbWriter.read(body) }
    }
}

extension SyncBase {
    init?(row: Row) {
        guard let id = UUID(parsing: row["todoId"]) else { return nil }
        self.init(
            todoId: id,
            remoteId: row["remoteId"],
            fields: SyncFields(text: row["text"], isDone: row["isDone"]),
            remoteVersion: row["remoteVersion"]
        )
    }
}
