import Foundation
import Testing
import TestSupport

/// The trait the suites that wait on processes carry: their tests, blocking
/// or not, run on threads of their own, never on the cooperative pool.
@Suite(.threadsOfTheirOwn)
struct ThreadsOfTheirOwnTests {
    /// Asked from synchronous code, as a blocking test's is.
    static func onItsThreads() -> Bool { BlockingTestsExecutor.isCurrent }

    @Test func aBlockingTestRunsOnAThreadOfItsOwn() {
        #expect(Self.onItsThreads())
    }

    @Test func anAsyncTestResumesOnOneAfterAnAwait() async throws {
        try await Task.sleep(for: .milliseconds(1))
        #expect(Self.onItsThreads())
    }
}
