import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Database Access: Sync settings and conflict history

extension SQLiteSyncStore {
    public func syncSetting(_ key: String) async throws -> String? {
        try database.setting(key)
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
                sql: """
                    SELECT todoId, field, localValue, remoteValue, winner, at, localEditedAt, remoteEditedAt
                    FROM syncConflict ORDER BY id DESC LIMIT ?
                    """,
                arguments: [limit]
            ).compactMap { row in
                guard let id = UUID(parsing: row[0]), let winner = SyncConflict.Side(rawValue: row[4]) else { return nil }
                return SyncConflict(
                    todoId: id, field: row[1], localValue: row[2], remoteValue: row[3],
                    winner: winner, at: Date(millisecondsSince1970: row[5]),
                    localEditedAt: (row[6] as Int64?).map(Date.init(millisecondsSince1970:)),
                    remoteEditedAt: (row[7] as Int64?).map(Date.init(millisecondsSince1970:))
                )
            }
        }
    }
}
