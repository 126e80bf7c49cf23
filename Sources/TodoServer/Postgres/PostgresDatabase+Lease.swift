import Foundation
import NIOPosix
import PostgresNIO

// MARK: - Leasing a connection within a deadline

extension PostgresDatabase {
    /// Leases a connection within `connectionDeadline`, then runs `body` on it
    /// (with no deadline: a running query is never abandoned half-way).
    ///
    /// The deadline is a timer on one of NIO's event loops, cancelled as soon
    /// as the connection comes: a `Task.sleep` in a second child task cost a
    /// task per query and a timer that stayed queued for its five seconds
    /// (`GET /todos/:id` 7,000 against 6,150 requests/s, medians of three
    /// turns: BENCHMARKS.md, "todo-server on PostgreSQL").
    func leased<T: Sendable>(
        deadline: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let deadline = deadline ?? connectionDeadline
        let lease = Lease<T>()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    let value = try await client.withConnection { connection in
                        guard lease.start() else { throw ServerError.databaseUnavailable }
                        return try await body(connection)
                    }
                    lease.finish(.success(value))
                } catch {
                    lease.finish(.failure(error))
                }
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(deadline)) {
                if lease.giveUp() { lease.finish(.failure(ServerError.databaseUnavailable)) }
            }
            let result = await lease.result()
            timer.cancel()
            // Given up: the wait for a connection is cancelled, not left to run.
            group.cancelAll()
            return try result.get()
        }
    }
}

/// A lease's progress: whether it began its work or was given up first
/// (exactly one wins), and its one result, for whoever waits for it.
private final class Lease<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state = State.waiting
    private var outcome: Result<T, any Error>?
    private var waiter: CheckedContinuation<Result<T, any Error>, Never>?

    private enum State { case waiting, started, givenUp }

    func start() -> Bool {
        lock.withLock {
            guard state == .waiting else { return false }
            state = .started
            return true
        }
    }

    func giveUp() -> Bool {
        lock.withLock {
            guard state == .waiting else { return false }
            state = .givenUp
            return true
        }
    }

    /// Sets the result, if none is set yet, and hands it to the waiter.
    func finish(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<Result<T, any Error>, Never>? = lock.withLock {
            guard outcome == nil else { return nil }
            outcome = result
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The result, once there is one.
    func result() async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let ready: Result<T, any Error>? = lock.withLock {
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
