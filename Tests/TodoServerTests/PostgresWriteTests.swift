import Foundation
import PostgresNIO
import TestSupport
import Testing
@testable import TodoServer

/// On PostgreSQL each single write is its statement in a transaction of its
/// own: concurrent writes of one account each take the next version, none
/// lost, and a write whose commit goes unanswered is never acknowledged.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PostgresWriteTests {
    @Test func concurrentWritesOfOneAccountEachTakeTheNextVersion() async throws {
        try await withRepository { repository in
            _ = try await repository.create(try TodoPayload(json: #"{"id": "hot", "title": "milk"}"#))
            var versions: [Int: Int] = [:]  // version -> the n its write set
            let answers = try await concurrently(48) { n in
                (n, try await repository.patch(id: "hot", with: try TodoPayload(json: #"{"n": \#(n)}"#), ifMatch: nil).version)
            }
            for (n, version) in answers {
                #expect(versions.updateValue(n, forKey: version) == nil, "version \(version) answered twice")
            }
            // Every write took the next version, none was lost: 2, 3, … in some order.
            #expect(versions.keys.sorted() == Array(2..<(2 + versions.count)))
            let stored = try #require(try await repository.get(id: "hot"))
            #expect(stored.version == 1 + versions.count)
            #expect(stored.json.contains(#""n": \#(versions[stored.version] ?? -1)"#), "\(stored.json)")
            let feed = try await repository.changes(since: 0, limit: nil)
            #expect(feed.itemsJSON.contains(#""version": \#(stored.version)"#), "\(feed.itemsJSON)")
        }
    }

    /// Its commit cut off (the connection lost while it ran, its rows
    /// already sent): 503, never 200, and the todo as it was.
    @Test func aWriteWhoseCommitGoesUnansweredIsNotAcknowledged() async throws {
        try await withRepository(todos: 2) { repository in
            try await Self.makeCommitsSlow(repository)
            let write = Task {
                try await repository.patch(id: "t1", with: try TodoPayload(json: #"{"slowCommit": true}"#), ifMatch: nil).version
            }
            let other = PostgresDatabase(repository.database.location, connectionDeadline: .seconds(60), logger: quietLogger)
            try await other.whileRunning {
                let cut = try await other.client.withConnection { connection in try await Self.cutTheSlowCommit(connection) }
                #expect(cut, "the write's commit never waited in the trigger")
            }
            let error = await #expect(throws: ServerError.self) { try await write.value }
            #expect(error?.status == .serviceUnavailable)
            #expect(try await afterTheCut { try await repository.get(id: "t1")?.version } == 1)
        }
    }

    /// `read`, again while it answers 503: the pool may lease the connection
    /// PostgreSQL just cut before it has seen it close.
    private func afterTheCut<T>(_ read: () async throws -> T) async throws -> T {
        for _ in 1..<5 {
            do {
                return try await read()
            } catch let error as ServerError where error.status == .serviceUnavailable {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        return try await read()
    }

    /// A commit that takes ten seconds, for updates of a todo marked
    /// `slowCommit`: long enough to lose the connection while it runs.
    private static func makeCommitsSlow(_ repository: PostgresTodoRepository) async throws {
        try await repository.database.withConnection { connection in
            try await connection.query(
                """
                CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(10); RETURN NULL; END $$
                """,
                logger: quietLogger
            )
            try await connection.query(
                """
                CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON item DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW WHEN (NEW.body ? 'slowCommit') EXECUTE FUNCTION slow_commit()
                """,
                logger: quietLogger
            )
        }
    }

    /// Ends, from `connection`, the connection whose commit sleeps in
    /// `slow_commit` once there is one (within 30 s); whether it did.
    private static func cutTheSlowCommit(_ connection: PostgresConnection) async throws -> Bool {
        for _ in 0..<3_000 {
            let rows = try await connection.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event = 'PgSleep'
                """,
                logger: quietLogger
            ).collect()
            if !rows.isEmpty { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }


    /// A repository on a fresh PostgreSQL database holding todos `t0` to `t(todos - 1)`.
    private func withRepository(todos: Int = 0, _ body: @Sendable (PostgresTodoRepository) async throws -> Void) async throws {
        try await withPostgresRepository { repository in
            for index in 0..<todos {
                _ = try await repository.create(try TodoPayload(json: #"{"id": "t\#(index)", "title": "milk"}"#))
            }
            try await body(repository)
        }
    }

    private func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count {
                group.addTask { (index, try await body(index)) }
            }
            var answers: [(Int, T)] = []
            for try await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
