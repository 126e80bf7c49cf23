import Foundation
import GRDB
import Hummingbird

/// The todo repository on SQLite, through GRDB.
///
/// Each todo is one row of the `item` table holding its JSON object as
/// served, under its account. Every write runs in one transaction that also
/// takes the next change number from its account's row, so the change feed
/// has no gaps and no reordering, whatever the number of concurrent clients.
public struct SQLiteTodoRepository: TodoRepository {
    let dbWriter: any DatabaseWriter
    /// The account this repository reads and writes for.
    public private(set) var account = AccountID.single
    /// The one list of the account this repository reads and writes, if scoped to one.
    public private(set) var list: String?
    /// Where `GET /todos/:id` reads; without them (a database in memory), `dbWriter`.
    let pointReaders: PointReaders?
    /// How long a tombstone is kept for the change feed.
    let tombstoneRetention: Duration
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> String
    /// Whether a batch's runs of creates are stored in bulk (`createAll`);
    /// off, each is stored alone, as the equivalence tests compare.
    var bulkCreates = true

    public static let defaultTombstoneRetention: Duration = .seconds(30 * 24 * 3600)

    /// Wraps a migrated database (see `ServerDatabase`) and purges expired tombstones.
    public init(
        _ dbWriter: any DatabaseWriter,
        tombstoneRetention: Duration = defaultTombstoneRetention,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        try self.init(dbWriter, pointReaders: nil, tombstoneRetention: tombstoneRetention, now: now, makeID: makeID)
    }

    init(
        _ dbWriter: any DatabaseWriter,
        pointReaders: PointReaders?,
        tombstoneRetention: Duration = defaultTombstoneRetention,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        self.dbWriter = dbWriter
        self.pointReaders = pointReaders
        self.tombstoneRetention = tombstoneRetention
        self.now = now
        self.makeID = makeID
        try dbWriter.write { db in try purgeAllTombstones(db, at: milliseconds(now())) }
    }

    /// The accounts kept in the same database.
    public var accountStore: SQLiteAccountStore {
        SQLiteAccountStore(dbWriter, pointReaders: pointReaders, now: now)
    }

    public var changeWatcher: any ChangeWatcher {
        let path = dbWriter.path
        return SQLiteChangeWatcher(writer: dbWriter, path: path.isEmpty || path.contains(":memory:") ? nil : path)
    }

    public func scoped(to account: AccountID, list: String?) -> SQLiteTodoRepository {
        var scoped = self
        scoped.account = account
        scoped.list = list
        return scoped
    }

    /// Runs a write transaction, mapping database failures at this boundary.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.mapErrors { try await dbWriter.write(body) }
    }

    /// Runs a read from one consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Self.mapErrors { try await dbWriter.read(body) }
    }

    /// A point read run on the calling thread: a lookup by key takes
    /// microseconds, less than the thread hops of an asynchronous read
    /// (which halved `GET /todos/:id` throughput).
    ///
    /// For one statement only: it runs outside an explicit transaction, which
    /// spares the BEGIN and COMMIT GRDB would parse and run around it. A single
    /// SELECT is its own transaction in SQLite, so it still reads one snapshot.
    func readOneStatementNow<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            if let pointReaders {
                return try pointReaders.read(body)
            }
            return try dbWriter.unsafeRead(body)
        } catch {
            throw Self.serverError(for: error)
        }
    }

    /// No GRDB error leaves the repository: each becomes a `ServerError`
    /// (an `AccountError` stays as it is).
    static func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as AccountError {
            throw error
        } catch {
            throw serverError(for: error)
        }
    }

    static func serverError(for error: any Error) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return ServerError(.serviceUnavailable, "The database is busy; retry shortly.")
            case .SQLITE_FULL:
                return ServerError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The server's disk is full.")
            default:
                return ServerError.storage(error.message ?? error.description)
            }
        default:
            return ServerError.storage(String(describing: error))
        }
    }

    func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}

// MARK: - Feed

extension SQLiteTodoRepository {
    /// The account's next change number; only inside a write transaction,
    /// which it serializes with the account's other writers.
    func nextChangeSeq(_ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: "UPDATE account SET lastChangeSeq = lastChangeSeq + 1 WHERE id = ? RETURNING lastChangeSeq")
        guard let seq = try Int64.fetchOne(statement, arguments: [account.rawValue]) else {
            throw ServerError.accountGone
        }
        return seq
    }

    /// Purges every account's expired tombstones: at start.
    func purgeAllTombstones(_ db: Database, at nowMilliseconds: Int64) throws {
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM account") {
            try scoped(to: AccountID(id)).purgeTombstones(db, at: nowMilliseconds)
        }
    }

    /// Removes tombstones older than the retention, remembering the newest
    /// change removed so cursors before it are refused.
    func purgeTombstones(_ db: Database, at nowMilliseconds: Int64) throws {
        let retention = tombstoneRetention.components
        let cutoff = nowMilliseconds - retention.seconds * 1000 - retention.attoseconds / 1_000_000_000_000_000
        let newestPurged = try Int64.fetchOne(
            db,
            sql: "SELECT max(changeSeq) FROM item WHERE account = ? AND deleted = 1 AND updatedAt < ?",
            arguments: [account.rawValue, cutoff]
        )
        guard let newestPurged else { return }
        // Their CalDAV resources go too: a todo made again with the id starts afresh.
        try db.execute(
            sql: "DELETE FROM calendarObject WHERE account = ? AND id IN (SELECT id FROM item WHERE account = ? AND deleted = 1 AND updatedAt < ?)",
            arguments: [account.rawValue, account.rawValue, cutoff]
        )
        try db.execute(sql: "DELETE FROM item WHERE account = ? AND deleted = 1 AND updatedAt < ?", arguments: [account.rawValue, cutoff])
        // Departures as old go too: a cursor that would need them is refused.
        try db.execute(sql: "DELETE FROM listDeparture WHERE account = ? AND changeSeq <= ?", arguments: [account.rawValue, newestPurged])
        try db.execute(
            sql: "UPDATE account SET purgedThrough = max(purgedThrough, ?) WHERE id = ?",
            arguments: [newestPurged, account.rawValue]
        )
    }
}

// MARK: - SQL

extension SQLiteTodoRepository {
    /// `updatedAt` as served: ISO 8601, UTC, milliseconds (`2026-11-21T09:30:00.000Z`).
    static let isoTime = "strftime('%Y-%m-%dT%H:%M:%S', :ms / 1000, 'unixepoch') || printf('.%03dZ', :ms % 1000)"

    /// A JSON path to a top-level field. Field names were checked to hold no quote.
    static func path(_ field: String) -> String {
        "$.\"\(field)\""
    }
}

// MARK: - Opening

extension SQLiteTodoRepository {
    /// Opens (creating if needed) the database at `path`, ready to serve.
    public static func open(
        path: String,
        durability: ServerDatabase.Durability = .full,
        tombstoneRetention: Duration = defaultTombstoneRetention
    ) throws -> SQLiteTodoRepository {
        let pool = try ServerDatabase.open(path: path, durability: durability)
        return try SQLiteTodoRepository(
            pool,
            pointReaders: ServerDatabase.openPointReaders(path: path, durability: durability),
            tombstoneRetention: tombstoneRetention
        )
    }
}
