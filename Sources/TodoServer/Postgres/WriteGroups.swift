import NIOConcurrencyHelpers
import PostgresNIO

/// Gathers one account's single writes into shared transactions: a write
/// that arrives while another of the same account runs waits for it, then
/// goes with every write that waited alongside into one transaction and one
/// commit.
///
/// Every write of an account takes that account's counter row first and
/// holds its lock to the commit (PostgresWriteStatements.swift), so they
/// commit one after another, each waiting for the previous one's WAL flush.
/// In a group they still run one after another, but share one flush. Each
/// write is answered only once its group has committed. A write alone (no
/// other of its account running) runs as before, a statement of its own.
/// `patch-one-account-pg` in Benchmarks/run.sh: +15% (BENCHMARKS.md);
/// `WriteGroupTests` pins that each write is answered as it is alone.
///
/// Holds no data, only writes on their way: several servers on one database
/// still see the same thing.
final class WriteGroups: Sendable {
    /// A write on a connection (inside a group's transaction, or alone).
    typealias Write = @Sendable (PostgresConnection) async throws -> WriteOutcome

    /// The most writes one transaction takes; the rest go in the next.
    static let maxGroupSize = 64

    private let state = NIOLockedValueBox(State())

    private struct State {
        /// For each account with a write running, the writes waiting their turn.
        var waiting: [Int64: [Waiter]] = [:]
        /// The most writes one group has held so far.
        var largestGroup = 0
    }

    /// The most writes one transaction has held so far (for tests).
    var largestGroup: Int { state.withLockedValue { $0.largestGroup } }

    private struct Waiter: Sendable {
        let write: Write
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting write learns: its result, or that it leads the next group.
    private enum Turn: Sendable {
        case done(Result<WriteOutcome, any Error>)
        case lead
    }

    /// Runs `write` for `account`: alone when none of its writes is running,
    /// else in the next group.
    func run(account: Int64, on database: PostgresDatabase, _ write: @escaping Write) async throws -> WriteOutcome {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = state.withLockedValue { state in
                guard state.waiting[account] != nil else {
                    state.waiting[account] = []
                    return true
                }
                state.waiting[account]?.append(Waiter(write: write, continuation: continuation))
                return false
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .done(let result):
            return try result.get()
        case .lead:
            return try await lead(account: account, on: database, first: write).get()
        }
    }

    /// Runs `first` with the writes waiting now, answers them, and hands the
    /// lead to the next write that waits (or leaves none running).
    private func lead(account: Int64, on database: PostgresDatabase, first: @escaping Write) async -> Result<WriteOutcome, any Error> {
        let others = state.withLockedValue { state in
            let taken = Array((state.waiting[account] ?? []).prefix(Self.maxGroupSize - 1))
            state.waiting[account]?.removeFirst(taken.count)
            state.largestGroup = max(state.largestGroup, taken.count + 1)
            return taken
        }
        let writes = [first] + others.map(\.write)
        // The others' writes must not fail because this write's request was
        // cancelled (its client went away): with others, the group runs in a
        // task of its own, which does not inherit this one's cancellation.
        let results = others.isEmpty
            ? await Self.runGroup(writes, on: database)
            : await Task { await Self.runGroup(writes, on: database) }.value
        for (waiter, result) in zip(others, results.dropFirst()) {
            waiter.continuation.resume(returning: .done(result))
        }
        let next = state.withLockedValue { state -> Waiter? in
            guard let queue = state.waiting[account], !queue.isEmpty else {
                state.waiting[account] = nil
                return nil
            }
            return state.waiting[account]?.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return results[0]
    }

    /// Each write's result: one write alone runs as a statement of its own;
    /// several share a transaction, in which a write answered 4xx changes
    /// nothing and the others go on. Should PostgreSQL refuse the transaction
    /// (after its retries), nothing of it was kept: each write runs alone,
    /// so it meets its own fate and no other's. Should the commit go
    /// unanswered (the connection lost), the group may have been kept, and
    /// running its writes again could store them twice: each gets the 503 a
    /// write alone gets then.
    static func runGroup(_ writes: [Write], on database: PostgresDatabase) async -> [Result<WriteOutcome, any Error>] {
        if writes.count > 1 {
            let committing = NIOLockedValueBox(false)
            do {
                return try await database.transaction { connection in
                    committing.withLockedValue { $0 = false }
                    var results: [Result<WriteOutcome, any Error>] = []
                    results.reserveCapacity(writes.count)
                    for write in writes {
                        do {
                            results.append(.success(try await write(connection)))
                        } catch let error as ServerError where error.status.code < 500 {
                            // A 404, 409 or 412 the repository found by reading:
                            // the transaction goes on. A statement PostgreSQL
                            // refused throws its own error instead, which ends
                            // the transaction (below), never this.
                            results.append(.failure(error))
                        }
                    }
                    committing.withLockedValue { $0 = true }
                    return results
                }
            } catch let error as ServerError where error.status == .serviceUnavailable && committing.withLockedValue({ $0 }) {
                return writes.map { _ in .failure(error) }
            } catch {
                // Refused, so rolled back: each write alone, below.
            }
        }
        var results: [Result<WriteOutcome, any Error>] = []
        for write in writes {
            do {
                results.append(.success(try await database.autocommit(write)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}

/// What a single write hands back: the todo as written (or, for a delete, as
/// it was), and whether tombstones are due to be purged.
struct WriteOutcome: Sendable {
    let todo: StoredTodo
    var purgeDue = false
}
