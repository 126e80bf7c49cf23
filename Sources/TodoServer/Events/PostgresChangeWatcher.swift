import Foundation
import PostgresNIO

/// Changes on PostgreSQL: a trigger (migration server_pg_0005) sends a
/// notification naming the account on every commit that moves its counter,
/// from any server instance; one connection of the pool listens.
struct PostgresChangeWatcher: ChangeWatcher {
    let database: PostgresDatabase

    func watch(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) async throws {
        try await database.client.withConnection { connection in
            try await connection.listen(on: "todo_changes") { notifications in
                // Listening now: whatever changed before is in the counters read next.
                nudge(nil)
                for try await notification in notifications {
                    if let account = Int64(notification.payload) { nudge([AccountID(account)]) }
                }
            }
        }
    }

    func counters(of accounts: [AccountID]) async throws -> [AccountID: Int] {
        let keys = accounts.map(\.rawValue)
        return try await database.withConnection { [logger = database.logger] connection in
            var counters: [AccountID: Int] = [:]
            let rows = try await connection.query("SELECT id, last_change_seq FROM account WHERE id = ANY(\(keys))", logger: logger)
            for try await (id, counter) in rows.decode((Int64, Int).self) {
                counters[AccountID(id)] = counter
            }
            return counters
        }
    }
}
