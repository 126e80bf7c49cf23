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
        try await withGroupedRepository { repository, groups in
            for index in 0..<16 {
                _ = try await repository.create(try TodoPayload(json: #"{"id": "t\#(index)", "title": "milk"}"#))
            }
            var attempts = 0
            repeat {
                attempts += 1
                let round = attempts
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
            } while groups.largestGroup < 2 && attempts < 5
            #expect(groups.largestGroup > 1, "no two writes ever shared a transaction")
        }
    }

    @Test func aWritePostgreSQLRefusesFailsAloneAndItsGroupIsKept() async throws {
        try await withGroupedRepository { repository, groups in
            for index in 0..<20 {
                _ = try await repository.create(try TodoPayload(json: #"{"id": "t\#(index)", "title": "milk"}"#))
            }
            // jsonb refuses the NUL character: PostgreSQL fails the statement,
            // which ends the transaction it is in.
            let poisoned = try TodoPayload(json: #"{"title": "a\u0000b"}"#)
            let alone: ServerError = try await #require(throws: ServerError.self) {
                try await repository.patch(id: "t0", with: poisoned, ifMatch: nil)
            }
            var attempts = 0
            repeat {
                attempts += 1
                let n = attempts
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
                    #expect(stored.json.contains(#""n": \#(attempts)"#), "t\(index) lost its write: \(stored.json)")
                }
            } while groups.largestGroup < 2 && attempts < 5
            #expect(groups.largestGroup > 1, "no two writes ever shared a transaction")
        }
    }

    @Test func aGroupWhoseLeadingRequestIsCancelledStillWritesEveryWrite() async throws {
        try await withGroupedRepository { repository, groups in
            _ = try await repository.create(try TodoPayload(json: #"{"id": "hot", "title": "milk"}"#))
            let other = PostgresDatabase(repository.database.location, connectionDeadline: .seconds(60), logger: quietLogger)
            try await other.whileRunning {
                try await other.client.withConnection { holder in
                    // The account's lock held elsewhere: the first write waits in
                    // PostgreSQL, and the next ten queue behind it in one group.
                    try await holder.query("BEGIN", logger: quietLogger)
                    try await holder.query("SELECT 1 FROM account WHERE id = 0 FOR UPDATE", logger: quietLogger)
                    let first = Task { try await repository.patch(id: "hot", with: try TodoPayload(json: #"{"n": 0}"#), ifMatch: nil).version }
                    try await Task.sleep(for: .milliseconds(300))
                    let queued = (1...10).map { n in
                        Task { try await repository.patch(id: "hot", with: try TodoPayload(json: #"{"n": \#(n)}"#), ifMatch: nil).version }
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    // Their clients go away: whichever of them leads the group is cancelled.
                    for task in queued { task.cancel() }
                    try await holder.query("COMMIT", logger: quietLogger)
                    #expect(try await first.value == 2)
                    var versions: [Int] = []
                    for task in queued { versions.append(try await task.value) }
                    #expect(versions.sorted() == Array(3...12))
                }
            }
            #expect(groups.largestGroup == 10)
            #expect(try await repository.get(id: "hot")?.version == 12)
        }
    }

    /// A repository on a fresh PostgreSQL database, and its write groups.
    private func withGroupedRepository(_ body: @Sendable (PostgresTodoRepository, WriteGroups) async throws -> Void) async throws {
        let database = try await makePostgresDatabase()
        try await database.whileRunning {
            try await database.migrate()
            let ids = TestIDs()
            try await body(PostgresTodoRepository(database, makeID: { ids.make() }), database.writeGroups)
        }
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
