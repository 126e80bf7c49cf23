import PostgresNIO

/// Gathers one account's single writes into shared statements: a write
/// that arrives while another of the same account runs waits for it, then
/// goes with every write that waited alongside into one call of
/// `todo_write_group` (Migrations/server_pg_0002_write_groups.sql): one
/// round trip, one transaction and one commit for all of them. A write
/// alone (none other of its account running) is a call of its own: one
/// round trip, where BEGIN, its statement and COMMIT would be three.
///
/// Every write of an account takes that account's counter row first and
/// holds its lock to the commit (PostgresWriteStatements.swift), so they
/// commit one after another, each waiting for the previous one's WAL flush
/// and its own round trips. In a group they still run one after another,
/// but inside PostgreSQL, and share one flush. Each write is answered only
/// once its group has committed.
/// `patch-one-account-pg` in Benchmarks/run.sh (BENCHMARKS.md);
/// `WriteGroupTests` pins that each write is answered as it is alone.
///
/// Holds no data, only writes on their way: several servers on one database
/// still see the same thing.
final class WriteGroups: Sendable {
    /// The most writes one statement takes; the rest go in the next.
    static let maxGroupSize = 64

    private let gatherer = Gatherer<Int64, GroupedWrite, WriteOutcome>(limit: 1, maxGroupSize: maxGroupSize)

    /// The most writes one statement has held so far (for tests).
    var largestGroup: Int { gatherer.largestGroup }

    /// How many writes wait for the next group now (for tests).
    var waiting: Int { gatherer.waiting }

    /// Runs `write` for `account`: alone when none of its writes is running,
    /// else in the next group.
    func run(account: Int64, on database: PostgresDatabase, _ write: GroupedWrite) async throws -> WriteOutcome {
        try await gatherer.run(write, key: account) { writes in await Self.runGroup(writes, account: account, on: database) }
    }

    /// Each write's result. The writes, one or several, run in one call of
    /// `todo_write_group`: one round trip, in which a write answered 4xx
    /// changes nothing and the others go on. Should PostgreSQL refuse the
    /// call, nothing of it was kept: each write runs alone, as statements of
    /// its own (`runAlone`), so it meets its own fate and no other's. Should
    /// the call go unanswered (the connection lost, the server stopping), the
    /// writes may have been kept, and running them again could store them
    /// twice: each gets the 503 a write alone gets then.
    ///
    /// Neither is left for PostgreSQL to commit by itself at the end of a
    /// statement: PostgresNIO hands over a statement's rows before such a
    /// commit has ended, and a commit cut then (a server stopping `-m fast`)
    /// would lose a write already answered 200. The procedure commits before
    /// it answers; a write alone runs between BEGIN and a COMMIT, which is
    /// answered only once durable.
    static func runGroup(_ writes: [GroupedWrite], account: Int64, on database: PostgresDatabase) async -> [Result<WriteOutcome, any Error>] {
        guard !writes.isEmpty else { return [] }
        do {
            let statement = WriteGroupStatement(account: account, writes: writes)
            let answers = try await database.autocommit { connection in
                try await PostgresDatabase.rows(statement, on: connection, logger: database.logger)
            }.first ?? []
            if answers.count == writes.count {
                return zip(writes, answers).map { write, answer in write.result(of: answer) }
            }
            // Committed, but not answered in full: as if the answer was lost.
            return writes.map { _ in .failure(ServerError.databaseUnavailable) }
        } catch let error as ServerError where error.status == .serviceUnavailable {
            return writes.map { _ in .failure(error) }
        } catch {
            // Refused, so not kept: each write alone.
            var results: [Result<WriteOutcome, any Error>] = []
            for write in writes {
                results.append(await runAlone(write, on: database))
            }
            return results
        }
    }

    /// `write` as statements of its own, between BEGIN and COMMIT: how a
    /// write PostgreSQL refused in a call is answered, and what the call's
    /// answers are checked against (`WriteGroupEquivalenceTests`).
    static func runAlone(_ write: GroupedWrite, on database: PostgresDatabase) async -> Result<WriteOutcome, any Error> {
        do {
            return .success(try await database.transaction { try await write.alone($0) })
        } catch {
            return .failure(error)
        }
    }
}

/// One single write on its way: what `todo_write_group` needs to run it in
/// a group, and how it runs alone.
struct GroupedWrite: Sendable {
    enum Kind: String, Sendable {
        case create, replace, patch, delete
    }

    let kind: Kind
    /// The todo's id as stored.
    let id: String
    let ifMatch: IfMatch?
    /// The JSON sent (none for a delete).
    let payload: TodoPayload?
    /// A create's id as the body's JSON value.
    var idJSON = "null"
    /// `updatedAt` as served, and in milliseconds.
    let time: String
    let milliseconds: Int64
    /// A delete's age before which tombstones are due to be purged.
    var purgeCutoff: Int64 = 0
    /// The write as a statement of its own.
    let alone: @Sendable (PostgresConnection) async throws -> WriteOutcome

    /// What the write's answer in a group says, as the write alone would answer.
    func result(of answer: WriteGroupStatement.Answer) -> Result<WriteOutcome, any Error> {
        switch answer.outcome {
        case "ok":
            return .success(WriteOutcome(todo: StoredTodo(id: id, version: Int(answer.version), json: answer.body), purgeDue: answer.purgeDue))
        case "missing":
            return .failure(ServerError.notFound(id: id))
        case "mismatch":
            return .failure(ServerError.preconditionFailed(id: id, currentVersion: Int(answer.version)))
        case "conflict":
            return .failure(ServerError.conflict(id: id))
        case "gone":
            return .failure(ServerError.accountGone)
        default:
            return .failure(ServerError.storage("todo_write_group answered \(answer.outcome)"))
        }
    }
}

/// What a single write hands back: the todo as written (or, for a delete, as
/// it was), and whether tombstones are due to be purged.
struct WriteOutcome: Sendable {
    let todo: StoredTodo
    var purgeDue = false
}
