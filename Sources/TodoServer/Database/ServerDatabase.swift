import Foundation
import GRDB
import TodoServerMigrations

/// Opens and migrates the server's SQLite database.
public enum ServerDatabase {
    /// How hard SQLite works to keep a committed write.
    public enum Durability: String, Sendable, CaseIterable {
        /// `synchronous = FULL`: a write is on disk before it is acknowledged,
        /// and survives a crash of the machine, not only of the server.
        case full
        /// `synchronous = NORMAL`: survives `kill -9` of the server, but a power
        /// loss may lose the last writes. Faster.
        case normal
    }

    /// A database file, opened for many readers and one writer at a time.
    public static func open(path: String, durability: Durability = .full) throws -> DatabasePool {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let pool = try DatabasePool(path: path, configuration: configuration(durability))
        try migrate(pool, path: path)
        return pool
    }

    /// Read-only connections to the database `open(path:durability:)` opened
    /// and migrated, for lookups by key: one per core, as many as threads that
    /// run requests at once.
    static func openPointReaders(path: String, durability: Durability = .full) throws -> PointReaders {
        try PointReaders(path: path, count: ProcessInfo.processInfo.activeProcessorCount, configuration: configuration(durability))
    }

    /// An empty database in memory, for tests.
    public static func inMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration(.full))
        try migrate(queue, path: ":memory:")
        return queue
    }

    static func configuration(_ durability: Durability) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
            db.add(function: lowercase)
        }
        return config
    }

    /// `serverLower(text)`: Unicode lowercasing, which SQLite's `lower` lacks.
    static let lowercase = DatabaseFunction("serverLower", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map { $0.lowercased() }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in ServerMigrations.all {
            let added = ServerMigrations.addedColumns[migration.identifier]
            migrator.registerMigration(migration.identifier) { db in
                if let added, try db.columns(in: added.table).contains(where: { $0.name == added.column }) { return }
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }

    /// Refuses a database written by a newer server (or by the `todo` app),
    /// then applies what is missing.
    static func migrate(_ writer: any DatabaseWriter, path: String) throws {
        let migrator = Self.migrator
        let superseded = try writer.read { try migrator.hasBeenSuperseded($0) }
        if superseded {
            throw ServerDatabaseError(
                "\(path) was written by a newer todo-server or is not a todo-server database; "
                    + "upgrade todo-server or choose another --database."
            )
        }
        // Several servers may open a new database at once: GRDB's migrator
        // reads what is applied before it locks, so a loser of that race fails
        // on "table exists". Then the winner has done the work; check again.
        var attempt = 0
        while true {
            do {
                try migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                if attempt >= 3 { throw error }
            }
        }
    }
}
