import NIOConcurrencyHelpers

/// Gathers jobs into groups that run together: while `limit` groups of one
/// key are running, a job of that key waits, and the next group takes every
/// job that waited (up to `maxGroupSize`). With nothing running, a job goes
/// at once, a group of one: gathering costs a job nothing when it is alone.
///
/// The way `WriteGroups` shares one commit among an account's writes and
/// `PointReads` one statement among the token checks of the moment. Holds no data,
/// only jobs on their way.
final class Gatherer<Key: Hashable & Sendable, Job: Sendable, Output: Sendable>: Sendable {
    /// Runs a group: one result per job, in the jobs' order.
    typealias RunGroup = @Sendable ([Job]) async -> [Result<Output, any Error>]

    let limit: Int
    let maxGroupSize: Int
    private let state = NIOLockedValueBox(State())

    private struct State {
        /// For each key with a group running: how many run, and the jobs waiting.
        var keys: [Key: KeyState] = [:]
        /// The most jobs one group has held so far.
        var largestGroup = 0
    }

    private struct KeyState {
        var running = 0
        var waiting: [Waiter] = []
    }

    private struct Waiter: Sendable {
        let job: Job
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting job learns: its result, or that it leads the next group.
    private enum Turn: Sendable {
        case done(Result<Output, any Error>)
        case lead
    }

    init(limit: Int, maxGroupSize: Int) {
        precondition(limit > 0 && maxGroupSize > 0)
        self.limit = limit
        self.maxGroupSize = maxGroupSize
    }

    /// The most jobs one group has held so far (for tests).
    var largestGroup: Int { state.withLockedValue { $0.largestGroup } }

    /// How many jobs of every key wait for a group now (for tests).
    var waiting: Int { state.withLockedValue { $0.keys.values.reduce(0) { $0 + $1.waiting.count } } }

    /// Runs `job`: at once when fewer than `limit` groups of `key` run, else
    /// in the next group. A group runs through its first job's `runGroup`.
    func run(_ job: Job, key: Key, group runGroup: @escaping RunGroup) async throws -> Output {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = state.withLockedValue { state in
                if state.keys[key, default: KeyState()].running < limit {
                    state.keys[key, default: KeyState()].running += 1
                    return true
                }
                state.keys[key]?.waiting.append(Waiter(job: job, continuation: continuation))
                return false
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .done(let result):
            return try result.get()
        case .lead:
            return try await lead(key: key, first: job, runGroup).get()
        }
    }

    /// Runs `first` with the jobs waiting now, answers them, and hands the
    /// lead to the next job that waits (or leaves one group fewer running).
    private func lead(key: Key, first: Job, _ runGroup: @escaping RunGroup) async -> Result<Output, any Error> {
        let others = state.withLockedValue { state in
            let taken = Array((state.keys[key]?.waiting ?? []).prefix(maxGroupSize - 1))
            state.keys[key]?.waiting.removeFirst(taken.count)
            state.largestGroup = max(state.largestGroup, taken.count + 1)
            return taken
        }
        let jobs = [first] + others.map(\.job)
        // The others' jobs must not fail because this job's request was
        // cancelled (its client went away): with others, the group runs in a
        // task of its own, which does not inherit this one's cancellation.
        let results = others.isEmpty ? await runGroup(jobs) : await Task { await runGroup(jobs) }.value
        for (waiter, result) in zip(others, results.dropFirst()) {
            waiter.continuation.resume(returning: .done(result))
        }
        let next = state.withLockedValue { state -> Waiter? in
            guard let waiting = state.keys[key]?.waiting, !waiting.isEmpty else {
                state.keys[key]?.running -= 1
                if state.keys[key]?.running == 0 { state.keys[key] = nil }
                return nil
            }
            return state.keys[key]?.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return results[0]
    }
}
