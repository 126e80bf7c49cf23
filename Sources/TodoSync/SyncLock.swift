import Foundation

/// One `todo sync` per database at a time: an advisory lock on a file beside
/// it, released by the kernel if the process dies. Other commands never take
/// it, so `todo add` during a sync just works.
public struct SyncLock: Sendable {
    let descriptor: Int32

    /// Waits up to `timeout` for a running sync to finish, then refuses;
    /// sleeping between tries, so it holds no thread (for a live view's syncs).
    public static func acquire(path: String, waitingUpTo timeout: Duration) async throws -> SyncLock {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                return try acquire(path: path, timeout: .zero)
            } catch SyncError.busy(_) where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Waits up to `timeout` for a running sync to finish, then refuses.
    public static func acquire(path: String, timeout: Duration = .seconds(10)) throws -> SyncLock {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SyncError.busy(lockPath: path) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw SyncError.busy(lockPath: path)
            }
            usleep(100_000)
        }
        return SyncLock(descriptor: descriptor)
    }

    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
