import Foundation
import PropertyBased
import TestSupport
import Testing
@testable import TodoServer

/// `todo_write_group` (one call for a group of writes) answers each write and
/// leaves the todos and the change feed exactly as the writes' own statements
/// run one after another: random creates, PUTs, PATCHes and DELETEs, with and
/// without `If-Match`, of live, missing and deleted todos.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct WriteGroupEquivalenceTests {
    /// Cases: `TODO_WRITE_GROUP_CASES` (more for a deeper search); 20 by
    /// default, as each makes two databases.
    static var cases: Int {
        ProcessInfo.processInfo.environment["TODO_WRITE_GROUP_CASES"].flatMap(Int.init) ?? 20
    }

    @Test func aGroupAnswersAndWritesAsItsWritesOneByOne() async throws {
        await propertyCheck(count: Self.cases, input: Gen.int(in: 0...Int.max).array(of: 1...24)) { codes in
            let writes = codes.map(RandomWrite.init(code:))
            let clock = TestClock()
            try await withSeededRepository(clock) { grouped in
                try await withSeededRepository(clock) { alone in
                    // The call itself, not `runGroup`, which would run each
                    // write alone should PostgreSQL refuse the call; against
                    // each write's own statements, between BEGIN and COMMIT.
                    let groupedWrites = writes.map { $0.groupedWrite(on: grouped) }
                    let statement = WriteGroupStatement(account: AccountID.single.rawValue, writes: groupedWrites)
                    let answers = try #require(try await grouped.database.autocommit { connection in
                        try await PostgresDatabase.rows(statement, on: connection, logger: quietLogger)
                    }.first)
                    try #require(answers.count == writes.count)
                    let together = zip(groupedWrites, answers).map { write, answer in write.result(of: answer) }
                    var oneByOne: [Result<WriteOutcome, any Error>] = []
                    for write in writes {
                        oneByOne.append(await WriteGroups.runAlone(write.groupedWrite(on: alone), on: alone.database))
                    }
                    for (index, (left, right)) in zip(together, oneByOne).enumerated() {
                        #expect(WriteAnswer(left) == WriteAnswer(right), "write \(index + 1) of \(writes.count), \(writes[index]), after \(writes.prefix(index))")
                    }
                    #expect(try await grouped.list(TodoQuery()).json == alone.list(TodoQuery()).json, "\(writes)")
                    let feeds = (try await grouped.changes(since: 0, limit: nil), try await alone.changes(since: 0, limit: nil))
                    #expect(feeds.0.itemsJSON == feeds.1.itemsJSON, "\(writes)")
                    #expect(feeds.0.deletedJSON == feeds.1.deletedJSON, "\(writes)")
                    #expect(feeds.0.cursor == feeds.1.cursor, "\(writes)")
                }
            }
        }
    }

    /// A repository on a fresh database holding `a` (at version 2) and the
    /// tombstone of `b`, old enough to be purged; the clock stays put.
    private func withSeededRepository(_ clock: TestClock, _ body: @Sendable (PostgresTodoRepository) async throws -> Void) async throws {
        try await withPostgresRepository(tombstoneRetention: .seconds(60), now: { clock.now }) { repository in
            _ = try await repository.create(try TodoPayload(json: #"{"id": "a", "title": "milk"}"#))
            _ = try await repository.patch(id: "a", with: try TodoPayload(json: #"{"completed": true}"#), ifMatch: nil)
            _ = try await repository.create(try TodoPayload(json: #"{"id": "b", "title": "eggs"}"#))
            _ = try await repository.delete(id: "b", ifMatch: nil)
            // No purge ran: the tombstone stays until a delete finds it due.
            try await body(repository)
        }
    }
}

/// A write decoded from a random number: its kind, its todo (live, deleted or
/// missing), its `If-Match` and its body.
private struct RandomWrite: Sendable, CustomStringConvertible {
    let kind: GroupedWrite.Kind
    let id: String
    let ifMatch: IfMatch?
    let json: String

    init(code: Int) {
        kind = [.create, .replace, .patch, .delete][code % 4]
        id = ["a", "b", "c", "7"][(code >> 2) % 4]
        ifMatch = [nil, .any, .versions([1]), .versions([2]), .versions([3, 4]), .versions([2, 5])][(code >> 4) % 6]
        let n = (code >> 7) % 100
        let variant = (code >> 14) % 4
        json = [
            #"{"n": \#(n)}"#,
            #"{"n": \#(n), "note": null, "version": 99}"#,
            #"{"tags": ["x", "\#(n)"], "updatedAt": "2020-01-01T00:00:00.000Z"}"#,
            // Another id in the body (not for a create, which names its own).
            kind == .create ? #"{"n": \#(n)}"# : #"{"id": "other", "n": \#(n)}"#,
        ][variant]
    }

    var description: String { "\(kind) \(id) \(ifMatch.map { "\($0)" } ?? "-") \(json)" }

    func groupedWrite(on repository: PostgresTodoRepository) -> GroupedWrite {
        // A create names its id in the body (a number for `7`, as clients send it).
        let payload = try! TodoPayload(json: json)
        switch kind {
        case .create:
            let withID = id == "7" ? #"{"id": 7, "#  : #"{"id": "\#(id)", "#
            return repository.createWrite(try! TodoPayload(json: withID + json.dropFirst()))
        case .replace, .patch:
            return repository.updateWrite(kind, id: id, with: payload, ifMatch: ifMatch)
        case .delete:
            return repository.deleteWrite(id: id, ifMatch: ifMatch)
        }
    }
}

/// A write's answer, comparable: the todo and whether a purge is due, or the error's status and message.
private struct WriteAnswer: Equatable {
    let text: String

    init(_ result: Result<WriteOutcome, any Error>) {
        switch result {
        case .success(let outcome):
            text = "\(outcome.todo.id) \(outcome.todo.version) \(outcome.todo.json) purge \(outcome.purgeDue)"
        case .failure(let error as ServerError):
            text = "\(error.status.code) \(error.message)"
        case .failure(let error):
            text = "\(error)"
        }
    }
}
