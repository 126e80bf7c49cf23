import Foundation
import Testing

/// Runs a suite's tests on threads of their own, not on Swift's cooperative
/// pool.
///
/// The pool has one thread per core (two here), and a test that waits for a
/// process (`waitUntilExit`, a pipe read to its end, `Thread.sleep`) holds
/// one for as long. Two such tests at once stopped every other test in the
/// run: a client of a server process then sat past the server's idle
/// timeout and found its connection closed. Suites that block carry this
/// trait, so a wait of theirs holds one of a few threads kept for them
/// (`BlockingTestsExecutor`), and the pool goes on with the rest.
public struct ThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingTestsExecutor.shared) { try await function() }
    }
}

extension Trait where Self == ThreadsOfTheirOwn {
    /// The suite's tests block on processes: run them off the cooperative pool.
    public static var threadsOfTheirOwn: Self { ThreadsOfTheirOwn() }
}

/// A task executor of a few threads of its own, as many as there are cores:
/// a job that blocks holds one of them and nothing of the cooperative pool.
/// Few, not one per job: the suites that carry the trait start processes,
/// and all of them at once (Swift Testing starts every test together) kept
/// a two-core machine so busy that servers inside the test process missed
/// their clients' deadlines.
public final class BlockingTestsExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestsExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// The name of each of its threads, for a test to see where it runs
    /// (at most 15 bytes: Linux keeps a longer one from the thread's creator).
    public static let threadName = "own-thread"

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                Thread.current.name = Self.threadName
                while true {
                    condition.lock()
                    while jobs.isEmpty { condition.wait() }
                    let job = jobs.removeFirst()
                    condition.unlock()
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}
