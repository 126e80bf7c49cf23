import Foundation
import Logging
import PostgresNIO
import TodoMigrations

/// The server's PostgreSQL database: a pool of connections, the schema's
/// migrations, and the one way queries run (a deadline to get a connection,
/// transactions retried on serialization failures and deadlocks, and every
/// failure turned into a `ServerError`).
///
/// Holds no data of its own: several servers on one database see the same
/// thing, whatever each one last did.
public struct PostgresDatabase: Sendable {
    /// The pool. It works only while `run()` runs.
    public let client: PostgresClient
    public let location: PostgresLocation
    /// How long a request waits for a connection before it is answered 503:
    /// while PostgreSQL is down, the pool keeps trying for a minute before it
    /// fails a waiting request, longer than any client waits.
    let connectionDeadline: Duration
    let logger: Logger

    /// Serialization failures and deadlocks: the transaction is run again,
    /// at most this many times in all.
    static let maxAttempts = 10

    public init(_ location: PostgresLocation, connectionDeadline: Duration = .seconds(5), logger: Logger) {
        var configuration = PostgresClient.Configuration(
            host: location.host,
            port: location.port,
            username: location.user,
            password: location.password,
            database: location.database,
            tls: .disable
        )
        switch location.tls {
        case .disable: configuration.tls = .disable
        case .prefer: configuration.tls = .prefer(.makeClientConfiguration())
        case .require: configuration.tls = .require(.makeClientConfiguration())
        }
        configuration.options.connectTimeout = connectionDeadline
        // Enough for both cores' requests while others wait on locks; several
        // servers on one PostgreSQL each keep their own.
        configuration.options.maximumConnections = 16
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.location = location
        self.connectionDeadline = connectionDeadline
        self.logger = logger
    }

    /// A logger for the pool that says only what goes wrong: for commands
    /// that do one thing and exit.
    public static var quietLogger: Logger {
        var logger = Logger(label: "todo-server.postgres")
        logger.logLevel = .error
        return logger
    }

    /// Runs the pool until the task is cancelled (or, under a service group,
    /// until graceful shutdown).
    public func run() async {
        await client.run()
    }

    /// Runs `body` with the pool running, then stops it: for commands that
    /// open the database, do one thing and exit.
    public func whileRunning<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}

// MARK: - Running queries

extension PostgresDatabase {
    /// Runs `body` on a connection of the pool, outside a transaction.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await leased(body)
        } catch {
            throw Self.serverError(for: error)
        }
    }

    /// Runs `body` in a transaction, again from the start after a
    /// serialization failure or a deadlock (SQLSTATE 40001, 40P01).
    func transaction<T: Sendable>(
        _ isolation: String = "READ COMMITTED",
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await leased { connection in
                    try await connection.query("BEGIN ISOLATION LEVEL \(unescaped: isolation)", logger: logger)
                    let value: T
                    do {
                        value = try await body(connection)
                    } catch {
                        // A lost connection rolls back by itself.
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                    try await connection.query("COMMIT", logger: logger)
                    return value
                }
            } catch {
                let mapped = Self.serverError(for: error)
                guard Self.isRetryable(error), attempt < Self.maxAttempts else { throw mapped }
                attempt += 1
                // A little jitter, so the transactions that collided do not collide again.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// Leases a connection within `connectionDeadline`, then runs `body` on it
    /// (with no deadline: a running query is never abandoned half-way).
    private func leased<T: Sendable>(
        deadline: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let deadline = deadline ?? connectionDeadline
        let lease = LeaseState()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    guard lease.start() else { throw ServerError.databaseUnavailable }
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                if lease.giveUp() { throw ServerError.databaseUnavailable }
                return nil
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
            }
            throw ServerError.databaseUnavailable
        }
    }
}

/// Whether a lease began its work or was given up first; exactly one wins.
private final class LeaseState: @unchecked Sendable {
    private let lock = NSLock()
    private var state = 0  // 0 waiting, 1 started, 2 given up

    func start() -> Bool {
        lock.withLock {
            guard state == 0 else { return false }
            state = 1
            return true
        }
    }

    func giveUp() -> Bool {
        lock.withLock {
            guard state == 0 else { return false }
            state = 2
            return true
        }
    }
}

// MARK: - Errors

extension ServerError {
    /// PostgreSQL cannot be reached, or is starting or stopping.
    static let databaseUnavailable = ServerError(.serviceUnavailable, "The database is unavailable; retry shortly.")
}

extension PostgresDatabase {
    /// The SQLSTATE of a PostgreSQL error, looking inside a transaction's wrapper.
    static func sqlState(of error: any Error) -> String? {
        switch error {
        case let error as PSQLError: error.serverInfo?[.sqlState]
        case let error as PostgresTransactionError:
            (error.closureError ?? error.commitError ?? error.beginError).flatMap(sqlState(of:))
        default: nil
        }
    }

    static func isRetryable(_ error: any Error) -> Bool {
        ["40001", "40P01"].contains(sqlState(of: error))
    }

    /// No PostgresNIO error leaves the repository: each becomes a
    /// `ServerError` (an `AccountError` stays as it is).
    static func serverError(for error: any Error) -> any Error {
        switch error {
        case let error as ServerError:
            return error
        case let error as AccountError:
            return error
        case let error as PostgresTransactionError:
            return serverError(for: error.closureError ?? error.commitError ?? error.beginError ?? ServerError.databaseUnavailable)
        case let error as PSQLError:
            guard let state = error.serverInfo?[.sqlState] else {
                // No answer from the server: the connection failed or closed.
                return ServerError.databaseUnavailable
            }
            let message = error.serverInfo?[.message] ?? state
            switch state {
            case "40001", "40P01":
                return ServerError(.serviceUnavailable, "The database is busy; retry shortly.")
            case _ where state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53"):
                // Connection lost, server shutting down or starting, out of resources.
                return ServerError.databaseUnavailable
            case _ where state.hasPrefix("22"):
                // A value PostgreSQL cannot hold, such as \u0000 in a string.
                return ServerError.badRequest("The database cannot store this value: \(message).")
            default:
                return ServerError.storage(message)
            }
        default:
            // The pool's own errors: it could not open a connection.
            return ServerError.databaseUnavailable
        }
    }
}

// MARK: - Migrations

extension PostgresDatabase {
    /// Refuses a database written by a newer server, then applies what is
    /// missing, in one transaction; servers starting at once take turns.
    public func migrate() async throws {
        let migrations = ServerPostgresMigrations.all
        do {
            // At start PostgreSQL may be starting too: worth a longer wait than a request's.
            try await leased(deadline: max(connectionDeadline, .seconds(30))) { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    // Two servers starting at once: the second waits, then finds the work done.
                    try await connection.query("SELECT pg_advisory_xact_lock(7165740)", logger: logger)
                    try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS todo_server_migration (
                            identifier text PRIMARY KEY,
                            applied_at timestamptz NOT NULL DEFAULT now()
                        )
                        """,
                        logger: logger
                    )
                    var applied: Set<String> = []
                    for try await identifier in try await connection.query("SELECT identifier FROM todo_server_migration", logger: logger)
                        .decode(String.self)
                    {
                        applied.insert(identifier)
                    }
                    let known = Set(migrations.map(\.identifier))
                    if let unknown = applied.subtracting(known).sorted().first {
                        throw ServerDatabaseError(
                            "\(location.displayName) was written by a newer todo-server (it has migration \(unknown)); "
                                + "upgrade todo-server or choose another --database."
                        )
                    }
                    for migration in migrations where !applied.contains(migration.identifier) {
                        for statement in ServerPostgresMigrations.statements(in: migration.sql) {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        try await connection.query(
                            "INSERT INTO todo_server_migration (identifier) VALUES (\(migration.identifier))",
                            logger: logger
                        )
                    }
                    try await connection.query("COMMIT", logger: logger)
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch let error as ServerDatabaseError {
            throw error
        } catch {
            throw ServerDatabaseError("Cannot prepare \(location.displayName): \(Self.describe(error))")
        }
    }

    /// What PostgreSQL said, in one line.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ServerError { return error.message }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
