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
                UUID(uuidString: row[0]).map { ($0, row[1]) }
            }
        }
    }

    public func pendingCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPending") ?? 0 }
    }

    public func markCreateInFlight(_ todoId: UUID) async throws {
        try write { db in
            try db.executeCached(sql: "INSERT OR IGNORE INTO syncCreateInFlight(todoId) VALUES (?)", arguments: [todoId.uuidString.lowercased()])
        }
    }

    public func createsInFlight() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncCreateInFlight") ?? 0 }
    }

    public func baseCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncBase") ?? 0 }
    }

    public func syncRows(todoIds: [UUID]) async throws -> [UUID: SyncRow] {
        try read { db in
            var rows: [UUID: SyncRow] = [:]
            for id in todoIds {
                let key = id.uuidString.lowercased()
                let base = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM syncBase WHERE todoId = ?"), arguments: [key])
                    .flatMap(SyncBase.init(row:))
                let local = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(TodoItem.selection) FROM todo WHERE id = ?"), arguments: [key])
                    .flatMap(TodoItem.init(row:))
                let rev = try Int64.fetchOne(db.cachedStatement(sql: "SELECT rev FROM syncPending WHERE todoId = ?"), arguments: [key])
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
            for remoteId in remoteIds {
                let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM syncBase WHERE remoteId = ?"), arguments: [remoteId])
                if let base = row.flatMap(SyncBase.init(row:)) { bases[remoteId] = base }
            }
            return bases
        }
    }

    public func apply(_ writes: [SyncWrite]) async throws -> [Bool] {
        try write { db in
            try writes.map { try Self.apply(db, $0) }
        }
    }

    private static func apply(_ db: Database, _ step: SyncWrite) throws -> Bool {
        let key = step.todoId.uuidString.lowercased()
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
        try db.executeCached(sql: "DELETE FROM syncCreateInFlight WHERE todoId = ?", arguments: [key])
        // The triggers queued our own write: it is synced by this very step.
        try db.executeCached(sql: "DELETE FROM syncPending WHERE todoId = ?", arguments: [key])
        switch step.base {
        case .keep:
            break
        case let .set(base):
            try db.executeCached(sql: """
                    INSERT INTO syncBase(todoId, remoteId, text, isDone, remoteVersion) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(todoId) DO UPDATE SET remoteId = excluded.remoteId, text = excluded.text,
                        isDone = excluded.isDone, remoteVersion = excluded.remoteVersion
                    """,
                arguments: [key, base.remoteId, base.fields.text, base.fields.isDone, base.remoteVersion]
            )
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
        return true
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
                guard let id = UUID(uuidString: row[0]), let winner = SyncConflict.Side(rawValue: row[4]) else { return nil }
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
        guard let id = UUID(uuidString: row["todoId"]) else { return nil }
        self.init(
            todoId: id,
            remoteId: row["remoteId"],
            fields: SyncFields(text: row["text"], isDone: row["isDone"]),
            remoteVersion: row["remoteVersion"]
        )
    }
}
