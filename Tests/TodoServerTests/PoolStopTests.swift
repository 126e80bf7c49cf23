import Synchronization
import Testing
@testable import TodoServer

/// `PostgresDatabase.whileRunning` stops its pool and waits for it at most a
/// bounded time: a pool that does not stop (postgres-nio's issue #599) must not
/// keep a command, the server's shutdown or a test run from ending.
@Suite(.timeLimit(.minutes(1)))
struct PoolStopTests {
    @Test func theWaitEndsAtItsLimitWhenTheTaskGoesOn() async {
        let ended = Mutex(false)
        let goesOn = Task {
            try? await Task.sleep(for: .seconds(3600))
            ended.withLock { $0 = true }
        }
        await PostgresDatabase.wait(for: goesOn, atMost: .milliseconds(100))
        #expect(!ended.withLock { $0 })
        goesOn.cancel()
        await goesOn.value
        #expect(ended.withLock { $0 })
    }

    @Test func theWaitEndsWhenTheTaskEndsFirst() async {
        let ended = Mutex(false)
        let quick = Task { ended.withLock { $0 = true } }
        // With an hour's limit, only the task's end lets this return within the suite's minute.
        await PostgresDatabase.wait(for: quick, atMost: .seconds(3600))
        #expect(ended.withLock { $0 })
    }
}
