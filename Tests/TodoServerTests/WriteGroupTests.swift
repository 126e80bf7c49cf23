import Foundation
import PostgresNIO
import TestSupport
import Testing
@testable import TodoServer

/// On PostgreSQL, one account's single writes that arrive together share a
/// transaction (`WriteGroups`): each is answered exactly as it would be alone,
/// one after another, and a write that fails, whether found out by the
/// repository (404, 409, 412) or refused by PostgreSQL, fails alone.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct WriteGroupTests {
    @Test func concurrentWritesOfOneAccountShareTransactionsAndEachIsKept() async throws {
        try await withGroupedRepository { repository, groups in
            _ = try await repository.create(try TodoPayload(json: #"{"id": "hot", "title": "milk"}"#))
            var versions: [Int: Int] = [:]  // version -> the n its write set
            // Bounded: a machine slow enough to run each write before the
            // next arrives would never group them; five bursts of 48 do.
            for burst in 0..<5 where groups.largestGroup < 2 {
                let answers = try await concurrently(48) { index in
                    let n = burst * 100 + index
                    return (n, try await repository.patch(id: "hot", with: try TodoPayload(json: #"{"n": \#(n)}"#), ifMatch: nil).version)
                }
                for (n, version) in answers {
                    #expect(versions.updateValue(n, forKey: version) == nil, "version \(version) answered twice")
                }
            }
            #expect(groups.largestGroup > 1, "no two writes ever shared a transaction")
            // Every write took the next version, none was lost: 2, 3, … in some order.
            #expect(versions.keys.sorted() == Array(2..<(2 + versions.count)))
            let stored = try #require(try await repository.get(id: "hot"))
            #expect(stored.version == 1 + versions.count)
            #expect(stored.json.contains(#""n": \#(versions[stored.version] ?? -1)"#), "\(stored.json)")
            let feed = try await repository.changes(since: 0, limit: nil)
            #expect(feed.itemsJSON.contains(#""version": \#(stored.version)"#), "\(feed.itemsJSON)")
        }
    }

    @Test func aWriteAnswered404Or409Or412InAGroupLeavesTheOthersKept() async throws {
        try await withGroupedRepository(todos: 16) { repository, groups in
            try await inRoundsUntilGrouped(groups) { round in
                // Each todo patched twice at its current version (one wins,
                // the other gets 412), one id created four times (one 201,
                // three 409), and a todo that does not exist (404).
                let answers = try await concurrently(37) { index -> Int in
                    do {
                        switch index {
                        case 0..<32:
                            let id = "t\(index / 2)"
                            let payload = try TodoPayload(json: #"{"round": \#(round), "by": \#(index)}"#)
                            _ = try await repository.patch(id: id, with: payload, ifMatch: .versions([round]))
                            return 200
                        case 32..<36:
                            _ = try await repository.create(try TodoPayload(json: #"{"id": "new\#(round)", "by": \#(index)}"#))
                            return 201
                        default:
                            _ = try await repository.patch(id: "missing", with: try TodoPayload(json: "{}"), ifMatch: nil)
                            return 200
                        }
                    } catch let error as ServerError {
                        return Int(error.status.code)
                    }
                }
                #expect(answers.filter { $0 == 200 }.count == 16, "\(answers)")
                #expect(answers.filter { $0 == 412 }.count == 16, "\(answers)")
                #expect(answers.filter { $0 == 201 }.count == 1, "\(answers)")
                #expect(answers.filter { $0 == 409 }.count == 3, "\(answers)")
                #expect(answers.filter { $0 == 404 }.count == 1, "\(answers)")
                for index in 0..<16 {
                    let stored = try #require(try await repository.get(id: "t\(index)"))
                    #expect(stored.version == round + 1)
                    #expect(stored.json.contains(#""round": \#(round)"#), "\(stored.json)")
                }
            }
        }
    }

    @Test func aWritePostgreSQLRefusesFailsAloneAndItsGroupIsKept() async throws {
        try await withGroupedRepository(todos: 20) { repository, groups in
            // jsonb refuses the NUL character: PostgreSQL fails the statement,
            // which ends the transaction it is in.
            let poisoned = try TodoPayload(json: #"{"title": "a\u0000b"}"#)
            let alone: ServerError = try await #require(throws: ServerError.self) {
                try await repository.patch(id: "t0", with: poisoned, ifMatch: nil)
            }
            try await inRoundsUntilGrouped(groups) { n in
                let answers = try await concurrently(21) { index -> String in
                    do {
                        if index == 20 {
                            _ = try await repository.patch(id: "t0", with: poisoned, ifMatch: nil)
                        } else {
                            _ = try await repository.patch(id: "t\(index)", with: try TodoPayload(json: #"{"n": \#(n)}"#), ifMatch: nil)
                        }
                        return "ok"
                    } catch let error as ServerError {
                        return "\(error.status.code) \(error.message)"
                    }
                }
                #expect(answers.filter { $0 == "ok" }.count == 20, "\(answers)")
                #expect(answers[20] == "\(alone.status.code) \(alone.message)")
                for index in 0..<20 {
                    let stored = try #require(try await repository.get(id: "t\(index)"))
                    #expect(stored.json.contains(#""n": \#(n)"#), "t\(index) lost its write: \(stored.json)")
                }
            }
        }
    }

    @Test func aGroupWhoseLeadingRequestIsCancelledStillWritesEveryWrite() async throws {
        try await withGroupedRepository { repository, groups in
            _ = try await repository.create(try TodoPayload(json: #"{"id": "hot", "title": "milk"}"#))
            let (first, queued) = try await queueingOneGroup(repository, of: 10) { holder, queued in
                // Their clients go away: whichever of them leads the group is cancelled.
                for task in queued { task.cancel() }
                try await holder.query("COMMIT", logger: quietLogger)
            } write: { n in try await repository.patch(id: "hot", with: try TodoPayload(json: #"{"n": \#(n)}"#), ifMatch: nil).version }
            #expect(try await first.value == 2)
            var versions: [Int] = []
            for task in queued { versions.append(try await task.value) }
            #expect(versions.sorted() == Array(3...12))
            #expect(groups.largestGroup == 10)
            #expect(try await repository.get(id: "hot")?.version == 12)
        }
    }

    @Test func aGroupWhoseCommitGoesUnansweredIsNotWrittenAgain() async throws {
        try await withGroupedRepository(todos: 5) { repository, groups in
            try await Self.makeCommitsSlow(repository)
            let (first, queued) = try await queueingOneGroup(repository, of: 4) { holder, _ in
                try await holder.query("COMMIT", logger: quietLogger)
                // The group's commit waits in the trigger: its connection is cut.
                let cut = try await Self.cutTheSlowCommit(holder)
                #expect(cut, "the group's commit never waited in the trigger")
            } write: { n in
                let payload = n == 0 ? #"{"n": 0}"# : #"{"slowCommit": true}"#
                return try await repository.patch(id: "t\(n)", with: try TodoPayload(json: payload), ifMatch: nil).version
            }
            #expect(try await first.value == 2)
            for task in queued {
                let error = await #expect(throws: ServerError.self) { try await task.value }
                #expect(error?.status == .serviceUnavailable)
            }
            #expect(groups.largestGroup == 4)
            // Not run again one by one: the commit was cut before it ended.
            for n in 1...4 {
                #expect(try await afterTheCut { try await repository.get(id: "t\(n)")?.version } == 1)
            }
        }
    }

    /// A write alone, as a call of `todo_write_group` (how it is sent) and
    /// as its own statements between BEGIN and COMMIT (how it is sent when
    /// PostgreSQL refused the call).
    @Test(arguments: [true, false])
    func aWriteAloneWhoseCommitGoesUnansweredIsNotAcknowledged(asACall: Bool) async throws {
        try await withGroupedRepository(todos: 2) { repository, _ in
            try await Self.makeCommitsSlow(repository)
            let write = Task {
                let payload = try TodoPayload(json: #"{"slowCommit": true}"#)
                if asACall {
                    return try await repository.patch(id: "t1", with: payload, ifMatch: nil).version
                }
                let alone = repository.updateWrite(.patch, id: "t1", with: payload, ifMatch: nil)
                return try await WriteGroups.runAlone(alone, on: repository.database).get().todo.version
            }
            // Its commit waits in the trigger, its rows already sent: the connection is cut.
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

    /// A repository on a fresh PostgreSQL database holding todos `t0` to
    /// `t(todos - 1)`, and its write groups.
    private func withGroupedRepository(
        todos: Int = 0,
        _ body: @Sendable (PostgresTodoRepository, WriteGroups) async throws -> Void
    ) async throws {
        try await withPostgresRepository { repository in
            for index in 0..<todos {
                _ = try await repository.create(try TodoPayload(json: #"{"id": "t\#(index)", "title": "milk"}"#))
            }
            try await body(repository, repository.database.writeGroups)
        }
    }

    /// Runs `round` with 1, 2, … until two writes have shared a transaction
    /// (at most five times: a machine slow enough to run each write before
    /// the next arrives never groups them), then expects that they have.
    private func inRoundsUntilGrouped(_ groups: WriteGroups, _ round: (Int) async throws -> Void) async throws {
        for number in 1...5 where groups.largestGroup < 2 {
            try await round(number)
        }
        #expect(groups.largestGroup > 1, "no two writes ever shared a transaction")
    }

    /// With the account's lock held on a connection of its own, starts
    /// `write(0)`, which then waits in PostgreSQL, and `write(1)` to
    /// `write(count)`, which queue behind it as one group; then hands the
    /// connection and the queued tasks to `release`, which must end the
    /// holding transaction.
    private func queueingOneGroup(
        _ repository: PostgresTodoRepository,
        of count: Int,
        release: @Sendable (PostgresConnection, [Task<Int, any Error>]) async throws -> Void,
        write: @escaping @Sendable (Int) async throws -> Int
    ) async throws -> (first: Task<Int, any Error>, queued: [Task<Int, any Error>]) {
        let other = PostgresDatabase(repository.database.location, connectionDeadline: .seconds(60), logger: quietLogger)
        return try await other.whileRunning {
            try await other.client.withConnection { holder in
                try await holder.query("BEGIN", logger: quietLogger)
                try await holder.query("SELECT 1 FROM account WHERE id = 0 FOR UPDATE", logger: quietLogger)
                let first = Task { try await write(0) }
                // Waited for, not slept on: a loaded machine may take longer
                // than any fixed pause to send a write.
                let blocked = try await Self.poll { try await Self.writesWaitingOnALock(holder) == 1 }
                #expect(blocked, "the first write never waited for the account's lock")
                let queued = (1...count).map { n in Task { try await write(n) } }
                let gathered = try await Self.poll { repository.database.writeGroups.waiting == count }
                #expect(gathered, "\(repository.database.writeGroups.waiting) of \(count) writes queued")
                try await release(holder, queued)
                return (first, queued)
            }
        }
    }

    /// Whether `condition` held within 30 s, asked every 10 ms.
    private static func poll(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<3_000 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// How many connections to this database wait for a lock, seen from
    /// `connection` (which may be in a transaction: its snapshot of the
    /// activity is cleared first, or it would see the same one each time).
    private static func writesWaitingOnALock(_ connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT pg_stat_clear_snapshot()", logger: quietLogger)
        let rows = try await connection.query(
            "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            logger: quietLogger
        )
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Runs `count` calls of `body` at once; their answers in index order.
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
