import Foundation
import PostgresNIO

/// The todo repository on PostgreSQL, through PostgresNIO: the same
/// behaviour as `SQLiteTodoRepository`, for any number of servers on one
/// database.
///
/// Nothing is cached between requests, so every server sees every other's
/// writes. Each write is one statement that first bumps its account's change
/// counter (`UPDATE account … RETURNING`): the row lock that takes serializes
/// the account's writers, so they commit in counter order and a feed reader
/// that has seen change 8 has already been able to see change 7. Conditional
/// writes are one `UPDATE … WHERE version = ANY(…)`: a compare-and-set in SQL.
/// Statements are prepared, once per connection.
public struct PostgresTodoRepository: TodoRepository {
    let database: PostgresDatabase
    /// The account this repository reads and writes for.
    public private(set) var account = AccountID.single
    /// The one list of the account this repository reads and writes, if scoped to one.
    public private(set) var list: String?
    /// How long a tombstone is kept for the change feed.
    let tombstoneRetention: Duration
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> String

    /// Wraps a migrated database; `purgeExpiredTombstones()` is for the start.
    public init(
        _ database: PostgresDatabase,
        tombstoneRetention: Duration = SQLiteTodoRepository.defaultTombstoneRetention,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.database = database
        self.tombstoneRetention = tombstoneRetention
        self.now = now
        self.makeID = makeID
    }

    /// The accounts kept in the same database.
    public var accountStore: PostgresAccountStore {
        PostgresAccountStore(database, now: now)
    }

    public var changeWatcher: any ChangeWatcher {
        PostgresChangeWatcher(database: database)
    }

    public func scoped(to account: AccountID, list: String?) -> PostgresTodoRepository {
        var scoped = self
        scoped.account = account
        scoped.list = list
        return scoped
    }

    func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// `updatedAt` as served: ISO 8601, UTC, milliseconds (`2026-11-21T09:30:00.000Z`),
    /// as SQLite's `strftime` writes it. The civil date from the day number
    /// is Howard Hinnant's `civil_from_days`: no calendar object per write.
    static func isoTime(_ milliseconds: Int64) -> String {
        let millis = Int(((milliseconds % 1000) + 1000) % 1000)
        let seconds = (milliseconds - Int64(millis)) / 1000
        let days = Int((seconds - ((seconds % 86_400) + 86_400) % 86_400) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3600, 2)):"
            + "\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2)).\(padded(millis, 3))Z"
    }

    /// The cut-off below which a tombstone's `updated_at` is purged.
    func purgeCutoff(at nowMilliseconds: Int64) -> Int64 {
        let retention = tombstoneRetention.components
        return nowMilliseconds - retention.seconds * 1000 - retention.attoseconds / 1_000_000_000_000_000
    }
}

// MARK: - Feed

extension PostgresTodoRepository {
    /// Purges every account's expired tombstones: at start.
    public func purgeExpiredTombstones() async throws {
        let cutoff = purgeCutoff(at: milliseconds(now()))
        try await database.transaction { connection in
            _ = try await connection.query(
                """
                WITH purged AS (DELETE FROM item WHERE deleted AND updated_at < \(cutoff) RETURNING account, change_seq),
                newest AS (SELECT account AS purged_account, max(change_seq) AS newest FROM purged GROUP BY account),
                departures AS (
                    -- Departures as old go too: a cursor that would need them is refused.
                    DELETE FROM list_departure AS d USING newest AS n WHERE d.account = n.purged_account AND d.change_seq <= n.newest
                )
                UPDATE account SET purged_through = greatest(purged_through, newest)
                FROM newest
                WHERE id = purged_account
                """,
                logger: database.logger
            )
        }
    }

    /// Removes the account's tombstones older than the retention, remembering
    /// the newest change removed so cursors before it are refused.
    func purgeTombstones(_ connection: PostgresConnection, at nowMilliseconds: Int64) async throws {
        try await connection.query(
            """
            WITH purged AS (
                DELETE FROM item WHERE account = \(account.rawValue) AND deleted AND updated_at < \(purgeCutoff(at: nowMilliseconds))
                RETURNING id, change_seq
            ), resources AS (
                -- Their CalDAV resources go too: a todo made again with the id starts afresh.
                DELETE FROM calendar_object WHERE account = \(account.rawValue) AND id IN (SELECT id FROM purged)
            ), departures AS (
                -- Departures as old go too: a cursor that would need them is refused.
                DELETE FROM list_departure
                WHERE account = \(account.rawValue) AND change_seq <= (SELECT max(change_seq) FROM purged)
            )
            UPDATE account SET purged_through = greatest(purged_through, (SELECT max(change_seq) FROM purged))
            WHERE id = \(account.rawValue) AND EXISTS (SELECT 1 FROM purged)
            """,
            logger: database.logger
        )
    }
}

// MARK: - Opening

extension PostgresTodoRepository {
    /// Migrates the database (the pool must be running) and purges expired
    /// tombstones: ready to serve.
    public static func open(
        _ database: PostgresDatabase,
        tombstoneRetention: Duration = SQLiteTodoRepository.defaultTombstoneRetention
    ) async throws -> PostgresTodoRepository {
        try await database.migrate()
        let repository = PostgresTodoRepository(database, tombstoneRetention: tombstoneRetention)
        try await repository.purgeExpiredTombstones()
        return repository
    }
}
