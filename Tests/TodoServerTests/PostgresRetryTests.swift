import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import TestSupport
import Testing
import TodoServer

/// A write that PostgreSQL cancels to break a deadlock (SQLSTATE 40P01) is
/// run again and answered as if nothing happened: never a 500, and not the
/// 503 it would get without the retry.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PostgresRetryTests {
    /// How the write reaches the database: one statement on its own, or in a batch's transaction.
    enum Write: String, CaseIterable, Sendable {
        case patch, batch

        func send(_ id: String, to client: any TestClientProtocol) async throws -> TestResponse {
            switch self {
            case .patch:
                try await client.send(.patch, "/todos/\(id)", #"{"completed":true}"#)
            case .batch:
                try await client.send(.post, "/todos/_batch", #"{"operations":[{"method":"PATCH","id":"\#(id)","body":{"completed":true}}]}"#)
            }
        }
    }

    @Test(arguments: Write.allCases)
    func aWriteCancelledByADeadlockIsRetriedAndSucceeds(_ write: Write) async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase()
        let name = PostgresCluster.databaseName(in: url)
        // The server's connections look for a deadlock after 1 s of waiting,
        // the test's own after a minute: PostgreSQL cancels the server's statement.
        try await offThePool { try cluster.psql("ALTER DATABASE \(name) SET deadlock_timeout = '1s'") }
        let location = try PostgresLocation(url: url)
        let database = PostgresDatabase(location, connectionDeadline: .seconds(60), logger: quietLogger)
        let other = PostgresDatabase(location, connectionDeadline: .seconds(60), logger: quietLogger)
        try await database.whileRunning {
            try await other.whileRunning {
                try await database.migrate()
                let app = makeApp(PostgresTodoRepository(database, now: { testStart }))
                try await app.test(.router) { client in
                    // PostgreSQL looks for a deadlock once per wait: when the test's
                    // second lock request comes after the server's look (a loaded
                    // machine), the test's own connection is cancelled instead and
                    // the server's write goes through without a retry. Then again,
                    // on another todo, a bounded number of times.
                    var serverCancelled = false
                    for attempt in 1...5 where !serverCancelled {
                        let id = "a\(attempt)"
                        #expect(try await client.send(.post, "/todos", #"{"id":"\#(id)","title":"milk"}"#).status == .created)
                        let (response, cancelled) = try await other.client.withConnection { connection in
                            try await Self.deadlock(write, id: id, client: client, holding: connection)
                        }
                        serverCancelled = cancelled
                        #expect(response.status == .ok, "\(response.text)")
                        #expect(response.text.contains(#""completed": true"#), "\(response.text)")
                        let todo = try await client.send(.get, "/todos/\(id)").json
                        #expect(todo["completed"] == true && todo["version"] == 2)
                    }
                    #expect(serverCancelled, "PostgreSQL never cancelled the server's statement")
                }
                let deadlocks = try await other.client.withConnection { connection in
                    try await connection.query("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()", logger: quietLogger)
                        .collect().first?.decode(Int64.self) ?? 0
                }
                #expect(deadlocks >= 1, "PostgreSQL found no deadlock: the test did not cause one")
            }
        }
    }

    /// Holds todo `id`'s lock on `connection` while `write` is sent; once
    /// the server's statement waits for it (holding the account's lock),
    /// asks for the account's lock: a deadlock, which PostgreSQL breaks by
    /// cancelling one of the two statements. Returns the response, and
    /// whether the server's statement was the one cancelled.
    private static func deadlock(
        _ write: Write,
        id: String,
        client: any TestClientProtocol,
        holding connection: PostgresConnection
    ) async throws -> (TestResponse, serverCancelled: Bool) {
        try await connection.query("SET deadlock_timeout = '3s'", logger: quietLogger)
        try await connection.query("BEGIN", logger: quietLogger)
        try await connection.query("SELECT 1 FROM item WHERE account = 0 AND id = \(id) FOR UPDATE", logger: quietLogger)
        return try await withThrowingTaskGroup(of: TestResponse.self) { group in
            group.addTask { try await write.send(id, to: client) }
            // Bounded, so a write that never waits fails the test rather than hanging it.
            var waiting = false
            for _ in 0..<6_000 where !waiting {
                let rows = try await connection.query(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                    """,
                    logger: quietLogger
                ).collect()
                waiting = try rows.first?.decode(Int64.self) == 1
                if !waiting { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(waiting, "the server's write never waited for the todo's lock")
            var serverCancelled = true
            do {
                // Returns once PostgreSQL has cancelled the server's statement.
                try await connection.query("UPDATE account SET last_change_seq = last_change_seq WHERE id = 0", logger: quietLogger)
                try await connection.query("COMMIT", logger: quietLogger)
            } catch {
                // This connection's statement was cancelled instead: let the server's go on.
                serverCancelled = false
                try await connection.query("ROLLBACK", logger: quietLogger)
            }
            return (try await group.next()!, serverCancelled)
        }
    }
}
