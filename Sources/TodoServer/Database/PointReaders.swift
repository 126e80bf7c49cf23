import Foundation
import GRDB

/// Read-only connections for lookups by key, run on the calling thread.
///
/// A lookup by key is one statement, which SQLite runs as its own read
/// transaction: it sees every commit made before it, by this server or by any
/// other process. Through the `DatabasePool`, the same lookup cost several
/// times the SELECT itself: the pool's semaphore and bookkeeping, a schema
/// check, and a BEGIN and COMMIT parsed and run around it. Each connection
/// serves one caller at a time; callers take them in turn, so two threads
/// rarely wait for each other.
struct PointReaders: Sendable {
    private let connections: [DatabaseQueue]
    private let turn = Turn()

    /// `count` read-only connections to the migrated database at `path`.
    init(path: String, count: Int, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        connections = try (0..<max(1, count)).map { _ in try DatabaseQueue(path: path, configuration: configuration) }
    }

    /// Runs one statement's worth of reading on the next connection.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connections[turn.next(below: connections.count)].unsafeRead(body)
    }
}

/// A counter shared by the threads that take connections in turn.
private final class Turn: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next(below limit: Int) -> Int {
        lock.withLock {
            count = count == Int.max ? 0 : count + 1
            return count % limit
        }
    }
}
