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
/// trait, so a wait of theirs holds only a thread of its own.
public struct ThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == ThreadsOfTheirOwn {
    /// The suite's tests block on processes: run them off the cooperative pool.
    public static var threadsOfTheirOwn: Self { ThreadsOfTheirOwn() }
}

/// A task executor that runs each job on a new thread: a job that blocks
/// holds that thread and nothing else.
public final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()
    /// The name of each of its threads, for a test to see where it runs
    /// (at most 15 bytes: Linux keeps a longer one from the thread's creator).
    public static let threadName = "own-thread"

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread {
            Thread.current.name = Self.threadName
            job.runSynchronously(on: executor)
        }
    }
}
