import Foundation
import TestSupport
import Testing
import TodoServer

/// The databases the route suite runs on: every behaviour of
/// Docs/server.md holds on both.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A fresh SQLite database in memory.
    case sqlite
    /// A fresh database in the test run's private PostgreSQL cluster.
    case postgres

    var testDescription: String { rawValue }
}

/// Runs `body` with a repository and its accounts on a fresh database of
/// `backend`, with a fixed clock and ids. Without PostgreSQL installed, a
/// PostgreSQL case is cancelled (skipped), saying so.
func withTestDatabase<T: Sendable>(
    _ backend: Backend,
    clock: TestClock = TestClock(),
    tombstoneRetention: Duration = SQLiteTodoRepository.defaultTombstoneRetention,
    _ body: @Sendable (any TodoRepository, any AccountStore) async throws -> T
) async throws -> T {
    switch backend {
    case .sqlite:
        let repository = try makeRepository(clock: clock, tombstoneRetention: tombstoneRetention)
        return try await body(repository, repository.accountStore)
    case .postgres:
        return try await withPostgresRepository(tombstoneRetention: tombstoneRetention, now: { clock.now }) { repository in
            try await body(repository, repository.accountStore)
        }
    }
}

/// Runs `body` with a repository on a fresh, migrated database of the
/// shared PostgreSQL cluster, with ids `TestIDs` makes; its pool runs for
/// `body`'s length.
func withPostgresRepository<T: Sendable>(
    tombstoneRetention: Duration = SQLiteTodoRepository.defaultTombstoneRetention,
    now: @escaping @Sendable () -> Date = { Date() },
    _ body: @Sendable (PostgresTodoRepository) async throws -> T
) async throws -> T {
    let database = try await makePostgresDatabase()
    return try await database.whileRunning {
        try await database.migrate()
        let ids = TestIDs()
        return try await body(PostgresTodoRepository(database, tombstoneRetention: tombstoneRetention, now: now, makeID: { ids.make() }))
    }
}

/// A fresh, empty database in the shared test cluster (not yet migrated);
/// cancels the test when PostgreSQL is not installed.
func makePostgresDatabase() async throws -> PostgresDatabase {
    if let reason = PostgresCluster.unavailableReason {
        try Test.cancel(Comment(rawValue: reason))
    }
    let url = try await PostgresCluster.shared().makeDatabase()
    // Generous: a loaded test machine may take seconds to open a connection.
    return PostgresDatabase(try PostgresLocation(url: url), connectionDeadline: .seconds(60), logger: quietLogger)
}

/// Where a `todo-server` process keeps a test's data, as `--database` takes
/// it: a new SQLite file's path, or a new PostgreSQL database's URL.
func makeDatabaseArgument(_ backend: Backend) async throws -> String {
    switch backend {
    case .sqlite:
        return temporaryDatabasePath()
    case .postgres:
        if let reason = PostgresCluster.unavailableReason {
            try Test.cancel(Comment(rawValue: reason))
        }
        return try await PostgresCluster.shared().makeDatabase()
    }
}

/// `todo-server user add NAME --database DATABASE`: the token it prints.
func addAccount(_ name: String, database: String) async throws -> String {
    let process = try ServerProcess(["user", "add", name, "--database", database])
    #expect(try await process.exitStatus() == 0, "\(process.printed)")
    return try #require(process.printed.split(separator: "\n").first { $0.hasPrefix("todo_") }.map(String.init))
}
