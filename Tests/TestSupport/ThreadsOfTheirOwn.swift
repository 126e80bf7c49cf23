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

/// A task executor of a few threads of its own, as many as there are cores
/// to begin with: a job that blocks holds one of them and nothing of the
/// cooperative pool. Few, not one per job: the suites that carry the trait
/// start processes, and all of them at once (Swift Testing starts every test
/// together) kept a two-core machine so busy that servers inside the test
/// process missed their clients' deadlines. But a job waits at most about
/// half a second behind tests that block for long (a tmux session, a large
/// vdirsyncer sync): then a thread is added, up to `maximumThreads`, so an
/// async test's next step (the request that must follow a throttled one
/// within its minute) is not held for minutes.
public final class BlockingTestsExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestsExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// The name of each of its threads (at most 15 bytes: Linux keeps a
    /// longer one from the thread's creator).
    public static let threadName = "own-thread"
    /// Set in each of its threads' dictionaries, for a test to see where it runs.
    public static let marker = "BlockingTestsExecutor"

    /// Whether the calling code runs on one of its threads.
    public static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }
    static let maximumThreads = 8
    static let longestWait: Duration = .milliseconds(500)

    private let condition = NSCondition()
    /// The jobs waiting for a thread, each with when it came.
    private var jobs: [(job: UnownedJob, since: ContinuousClock.Instant)] = []
    private var threads = 0

    init(threads: Int) {
        condition.lock()
        for _ in 0..<threads { addThread() }
        condition.unlock()
        // Adds a thread while the oldest waiting job has waited too long.
        Thread.detachNewThread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                condition.lock()
                if let oldest = jobs.first, ContinuousClock.now - oldest.since > Self.longestWait, self.threads < Self.maximumThreads {
                    addThread()
                }
                condition.unlock()
            }
        }
    }

    /// Starts one more thread taking jobs; called with the lock held.
    private func addThread() {
        threads += 1
        Thread.detachNewThread { [self] in
            Thread.current.name = Self.threadName
            Thread.current.threadDictionary[Self.marker] = true
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst().job
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append((job, .now))
        condition.signal()
        condition.unlock()
    }
}
