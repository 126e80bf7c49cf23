import Foundation
import Logging
import PostgresNIO

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

    /// Runs one prepared statement on a connection of the pool and returns its rows.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await withConnection { connection in try await Self.rows(statement, on: connection, logger: logger) }
    }

    /// Runs one prepared statement on `connection` and returns its rows: a
    /// prepared statement is parsed and planned once per connection, then
    /// each run is a bind and an execute.
    static func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) {
            rows.append(row)
        }
        return rows
    }

    /// Runs `body` on a connection of the pool, outside a transaction, again
    /// from the start after a serialization failure or a deadlock: for a
    /// statement PostgreSQL may commit by itself, such as a purge. Not for a
    /// statement whose rows answer a client: they arrive before its own
    /// commit has ended (see PostgresWriteStatements.swift).
    func autocommit<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await retrying { try await leased(body) }
    }

    /// Runs `body` in a transaction, again from the start after a
    /// serialization failure or a deadlock.
    func transaction<T: Sendable>(
        _ isolation: String = "READ COMMITTED",
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await retrying {
            try await leased { connection in
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
        }
    }

    /// Runs `attempt` until it does not fail with a serialization failure or
    /// a deadlock (SQLSTATE 40001, 40P01), at most `maxAttempts` times; then
    /// that failure is a 503. Every failure leaves as a `ServerError`.
    private func retrying<T: Sendable>(_ attempt: () async throws -> T) async throws -> T {
        var attempts = 1
        while true {
            do {
                return try await attempt()
            } catch {
                guard Self.isRetryable(error), attempts < Self.maxAttempts else { throw Self.serverError(for: error) }
                attempts += 1
                // A little jitter, so the transactions that collided do not collide again.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempts))))
            }
        }
    }
}
