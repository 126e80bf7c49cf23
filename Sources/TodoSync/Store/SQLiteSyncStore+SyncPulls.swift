import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Database Access: pulls in bulk
// A first sync pulls every todo of the server: stored in one transaction,
// the todos and their bases inserted many rows a statement.

extension SQLiteSyncStore {
    public func storePulls(_ pulls: [SyncPull]) async throws -> [Bool] {
        try StorageError.wrap(path: path) {
            try dbWriter.writeWithoutTransaction { db in
                try AppDatabase.withBulkWriting(db, if: pulls.count >= 1_000) {
                    var stored: [Bool] = []
                    try db.inTransaction(.immediate) {
                        stored = try Self.storePulls(db, pulls)
                        return .commit
                    }
                    return stored
                }
            }
        }
    }

    /// Stores each pull's todo as new, with the pull as its base; many at
    /// once in bulk (a first sync). A pull whose todo is here by now, or has
    /// a change queued (deleted here since the sync read), or that repeats
    /// an earlier pull, is not stored: the next pass plans it again.
    private static func storePulls(_ db: Database, _ pulls: [SyncPull]) throws -> [Bool] {
        let keys = pulls.map { $0.base.todoId.lowercasedString }
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0
        let present = existing == 0 ? [] : try AppDatabase.existingIds(db, keys)
        let queued = try pendingRevs(db, keys)
        // A sync hands its pulls in order of their ids: then none repeats.
        var seen: Set<String>? = AppDatabase.isStrictlyIncreasing(keys) ? nil : []
        var stored = [Bool](repeating: false, count: pulls.count)
        var new: [Int] = []
        new.reserveCapacity(pulls.count)
        for (index, key) in keys.enumerated()
        where !present.contains(key) && queued[key] == nil && seen?.insert(key).inserted ?? true {
            stored[index] = true
            new.append(index)
        }
        // The todos, built as they are inserted.
        let items = new.lazy.map { pulls[$0].item }
        if AppDatabase.prefersBulkInsert(count: new.count, existing: existing) {
            // Not queued as local changes: they came from the server.
            try AppDatabase.insertMany(
                db, items, ids: new.map { keys[$0] }, work: .pulledFromServer, withPlans: new.contains { pulls[$0].item.hasPlan }
            )
        } else {
            for item in items {
                try AppDatabase.insert(db, item)
            }
            // The insert trigger queued each: they came from the server.
            for index in new {
                try db.executeCached(sql: "DELETE FROM syncPending WHERE todoId = ?", arguments: [keys[index]])
            }
        }
        try insertBases(
            db, new.lazy.map { pulls[$0].base }, keys: new.map { keys[$0] }, withPlans: new.contains { pulls[$0].base.usesLaterColumns }
        )
        // A create of one of them that got no answer: the server has it, settled.
        if try !AppDatabase.isEmpty(db, "syncCreateInFlight") {
            for index in new {
                try db.executeCached(sql: "DELETE FROM syncCreateInFlight WHERE todoId = ?", arguments: [keys[index]])
            }
        }
        return stored
    }
}

extension BulkInsertWork {
    /// Sync's queue of local changes, filled by its insert trigger
    /// (migration 0002) row by row, filled at once for a bulk insert: each new
    /// todo queued once, in insertion order.
    package static let syncQueue = BulkInsertWork([
        "todo_after_insert_sync": [
            "DELETE FROM syncPending WHERE todoId IN (SELECT id FROM todo WHERE seq >= ?)",
            "INSERT INTO syncPending(todoId) SELECT id FROM todo WHERE seq >= ? ORDER BY seq",
        ],
    ])

    /// For todos a sync stores as the server gave them: they are not local
    /// changes, so the sync queue's insert trigger (migration 0002) is
    /// dropped during the insert and its work not done.
    static let pulledFromServer = BulkInsertWork.storage.merging(BulkInsertWork(["todo_after_insert_sync": []]))
}
