import Foundation
import Testing
import TestSupport

/// The trait the suites that wait on processes carry: their tests, blocking
/// or not, run on threads of their own, never on the cooperative pool.
@Suite(.threadsOfTheirOwn)
struct ThreadsOfTheirOwnTests {
    /// The thread's name, asked from synchronous code (as a blocking test's is).
    static func threadName() -> String? { Thread.current.name }

    @Test func aBlockingTestRunsOnAThreadOfItsOwn() {
        #expect(Self.threadName() == BlockingTestsExecutor.threadName)
    }

    @Test func anAsyncTestResumesOnOneAfterAnAwait() async throws {
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.threadName() == BlockingTestsExecutor.threadName)
    }
}
