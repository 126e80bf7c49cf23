import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Small reads the store's steps share

extension SQLiteSyncStore {
    /// The queued rev of each of these todos that has one, and maybe of
    /// others: when they are most of the queue, all of it is read in one pass.
    static func pendingRevs(_ db: Database, _ keys: [String]) throws -> [String: Int64] {
        var revs: [String: Int64] = [:]
        let queued = try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPending") ?? 0
        guard queued > 0 else { return revs }
        revs.reserveCapacity(min(queued, keys.count))
        if queued <= 2 * keys.count {
            let rows = try Row.fetchCursor(db, sql: "SELECT todoId, rev FROM syncPending")
            while let row = try rows.next() { revs[row[0]] = row[1] }
        } else {
            try AppDatabase.forEachRow(db, "SELECT todoId, rev FROM syncPending WHERE todoId IN", keys) { row in
                revs[row[0]] = row[1]
            }
        }
        return revs
    }

    /// At least the number of rows of `table` (a name from the migrations,
    /// with an integer primary key `seq`), without counting them.
    static func upperBoundOfRows(_ db: Database, _ table: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT ifnull(max(seq), 0) FROM \(table)") ?? 0
    }
}
