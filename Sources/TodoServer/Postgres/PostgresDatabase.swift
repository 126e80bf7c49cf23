import Foundation
import Logging
import PostgresNIO
import Synchronization

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
    /// open the database, do one thing and exit, and for the server, whose
    /// requests in flight have their answers by the time `body` returns.
    ///
    /// The pool is asked to stop and given `stopLimit` to do so. postgres-nio
    /// can keep `run()` waiting past its cancellation (a connection attempt in
    /// flight, its issue #599); a command that has done its work must still
    /// exit, so after the limit the pool is left to the process's end.
    public func whileRunning<T: Sendable>(
        stopLimit: Duration = .seconds(10),
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let running = Task { await client.run() }
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        running.cancel()
        await Self.wait(for: running, atMost: stopLimit)
        return try result.get()
    }

    /// Waits until `task` ends or `limit` has passed, whichever is first.
    static func wait(for task: Task<Void, Never>, atMost limit: Duration) async {
        let first = FirstOfTwo()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            first.start(continuation) {
                Task { await task.value; first.end() }
                return Task { try? await Task.sleep(for: limit); first.end() }
            }
        }
    }
}

/// Resumes a continuation when the first of two tasks ends, and cancels the
/// timer if the task it raced ended first.
private final class FirstOfTwo: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: Task<Void, Never>?
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Void, Never>, _ startTasks: () -> Task<Void, Never>) {
        state.withLock { $0.continuation = continuation }
        let timer = startTasks()
        state.withLock { $0.timer = timer }
    }

    func end() {
        let (continuation, timer) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume()
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
