import Foundation

/// Removes a SQLite database file with its write-ahead log and shared memory,
/// as a test that made it in the temporary folder leaves it.
public func removeDatabase(at path: String) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}
