import FileChanges
import Foundation
import GRDB

/// Changes on SQLite: this process's commits are seen as they happen (a
/// transaction observer on the writer, which knows the accounts); another
/// process's (a second todo-server on the same file) by a watch on the
/// database's files (`FileChangeSignal`: at each write, and a look each
/// second), confirmed by `PRAGMA data_version` on the writer's connection,
/// which moves only when another connection commits: this process's own
/// writes cost no second reading of every listened account.
struct SQLiteChangeWatcher: ChangeWatcher {
    let writer: any DatabaseWriter
    /// The database file; nil for one in memory, which no other process sees.
    let path: String?

    func watch(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) async throws {
        let observer = CounterObserver(nudge)
        writer.add(transactionObserver: observer, extent: .observerLifetime)
        defer { writer.remove(transactionObserver: observer) }
        guard let path else {
            nudge(nil)
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        let changes = FileChangeSignal(databasePath: path).changes()
        var version = try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        nudge(nil)
        for await _ in changes {
            let now = try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
            if now != version {
                version = now
                nudge(nil)
            }
        }
    }

    func counters(of accounts: [AccountID]) async throws -> [AccountID: Int] {
        let keys = accounts.map(\.rawValue)
        return try await writer.read { db in
            var counters: [AccountID: Int] = [:]
            // One statement, whatever the number of accounts: `json_each` takes the list as text.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, lastChangeSeq FROM account WHERE id IN (SELECT value FROM json_each(?))",
                arguments: ["[" + keys.map(String.init).joined(separator: ",") + "]"]
            )
            while let row = try rows.next() {
                counters[AccountID(row[0])] = row[1]
            }
            return counters
        }
    }
}

/// Notes the accounts whose change counter a transaction moved, and nudges
/// with them once it commits. GRDB calls it on the writer's queue, one
/// transaction at a time.
private final class CounterObserver: TransactionObserver, @unchecked Sendable {
    private let nudge: @Sendable (Set<AccountID>?) -> Void
    private var moved: Set<AccountID> = []

    init(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) {
        self.nudge = nudge
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .update("account", let columns) = eventKind { return columns.contains("lastChangeSeq") }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        moved.insert(AccountID(event.rowID))
    }

    func databaseDidCommit(_ db: Database) {
        guard !moved.isEmpty else { return }
        nudge(moved)
        moved = []
    }

    func databaseDidRollback(_ db: Database) {
        moved = []
    }
}
