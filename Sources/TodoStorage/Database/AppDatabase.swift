import Foundation
import GRDB
import TodoMigrations

/// Access to the todo database: migrates on open, then offers intent-named
/// reads and writes. Every write is one transaction.
public struct AppDatabase: Sendable {
    /// Access to the database.
    package let dbWriter: any DatabaseWriter
    /// Shown in error messages.
    package let path: String
    /// The clock the undo journal dates its changes by: a test sets its own.
    public var now: @Sendable () -> Date = { Date() }
    /// How an import, an undo or a redo of many todos does the insert
    /// triggers' work: storage's own, plus what a layer above registers for
    /// its triggers (sync's queue). A trigger not registered fires row by row.
    package var bulkInsertWork = BulkInsertWork.storage

    /// Wraps an opened connection, refusing a database written by a newer
    /// version and applying any migration not yet applied.
    public init(_ dbWriter: any DatabaseWriter, path: String = ":memory:") throws(StorageError) {
        self.dbWriter = dbWriter
        self.path = path
        do {
            try Self.prepareSchema(dbWriter, path: path)
        } catch {
            throw StorageError(error, path: path)
        }
    }

    /// Opens the database file at `path` to read it, creating nothing: a
    /// file that is not there is refused if the user named it (`explicit`: a
    /// mistyped path should not quietly read as empty), else read as an
    /// empty database (the default place, before the first todo).
    public static func openForReading(path: String, explicit: Bool) throws(StorageError) -> AppDatabase {
        guard FileManager.default.fileExists(atPath: path) else {
            if explicit { throw .noDatabase(path: path) }
            return try inMemory()
        }
        return try open(path: path)
    }

    /// Opens (creating if needed) the database file at `path`.
    public static func open(path: String) throws(StorageError) -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreateDirectory(path: directory, reason: Self.reason(error))
            }
        }
        if FileManager.default.fileExists(atPath: path) && !isWritable(path) {
            return try openReadOnly(path: path)
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: makeConfiguration())
        } catch {
            throw StorageError(error, path: path)
        }
        return try AppDatabase(queue, path: path)
    }

    /// Opens a database that cannot be written here (a read-only folder or
    /// file): it can be read, and every write fails with `.readOnlyFolder`
    /// or `.readOnly`.
    ///
    /// In WAL mode SQLite reads through a shared-memory file beside the
    /// database; in a read-only folder it cannot create one, so the file is
    /// then opened as immutable (no locks, no log: nothing can write it anyway).
    private static func openReadOnly(path: String) throws(StorageError) -> AppDatabase {
        var config = makeConfiguration()
        config.readonly = true
        func open(_ filename: String) throws(StorageError) -> AppDatabase {
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(path: filename, configuration: config)
            } catch {
                throw StorageError(error, path: path)
            }
            return try AppDatabase(queue, path: path)
        }
        do {
            return try open(path)
        } catch .newerVersion(let path) {
            throw .newerVersion(path: path)
        } catch {
            // Percent-encode what a URI would read as a query, a fragment or an escape.
            let encoded = path.replacingOccurrences(of: "%", with: "%25")
                .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
            return try open("file:\(encoded)?immutable=1")
        }
    }

    /// Whether this process may write the file at `path` and create files beside it.
    static func isWritable(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return access(directory.isEmpty ? "." : directory, W_OK) == 0 && access(path, W_OK) == 0
    }

    /// Whether this database was opened read-only, its folder or file not writable.
    public var isReadOnly: Bool { dbWriter.configuration.readonly }

    /// Throws the error a write would, before work that writes beside the
    /// database too (a sync's lock file) starts.
    public func checkWritable() throws(StorageError) {
        if isReadOnly { throw .readOnly(at: path) }
    }

    /// An empty database in memory, for tests and previews.
    public static func inMemory() throws(StorageError) -> AppDatabase {
        do {
            return try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(error, path: ":memory:")
        }
    }

    /// The configuration every connection uses: wait for other processes
    /// instead of failing with "database is locked".
    public static func makeConfiguration(_ base: Configuration = Configuration()) -> Configuration {
        var config = base
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in
            // WAL is durable against crashes of the app with NORMAL; only a
            // power loss may roll back the very last transactions.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return config
    }

    /// Closes the connection now: SQLite checkpoints the write-ahead log into
    /// the database file, as it does when the last connection goes away. After
    /// this, every access throws.
    public func close() throws {
        try StorageError.wrap(path: path) { try dbWriter.close() }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

// MARK: - Schema

extension AppDatabase {
    /// The migrator that builds the schema from the SQL files in `Migrations/`.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in AppMigrations.all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }

    private static func prepareSchema(_ writer: any DatabaseWriter, path: String) throws {
        // One read, before anything is written: a newer or foreign file is refused
        // untouched. It reads GRDB's migration table directly: the migrator's own
        // checks cost a few hundred microseconds of start-up in every command.
        let known = AppMigrations.all.map(\.identifier)
        var (applied, journalMode) = try writer.read { db in
            let hasTable = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations')
                """) ?? false
            let applied = hasTable ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            return (applied, try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        let renamed = applied.filter { AppMigrations.formerNames[$0] != nil }
        if !renamed.isEmpty, !writer.configuration.readonly {
            // Ran under a name it no longer has: the same SQL, so only the record changes.
            try writer.write { db in
                for old in renamed {
                    try db.execute(sql: "UPDATE grdb_migrations SET identifier = ? WHERE identifier = ?",
                                   arguments: [AppMigrations.formerNames[old], old])
                }
            }
        }
        applied = applied.map { AppMigrations.formerNames[$0] ?? $0 }
        if applied.contains(where: { !known.contains($0) }) {
            throw StorageError.newerVersion(path: path)
        }
        let isCurrent = known.allSatisfy(applied.contains)
        if writer.configuration.readonly {
            // Reading needs the current schema; bringing it there is a write.
            guard isCurrent else { throw StorageError.readOnlyTooOld(path: path) }
            return
        }
        if path != ":memory:" && journalMode != "wal" {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        guard !isCurrent else { return }
        let migrator = Self.migrator
        // Several processes may open a new database at once: GRDB's migrator
        // reads what is applied before it locks, so a loser of that race fails
        // on "table exists". Then the winner has done the work; check again.
        var attempt = 0
        while true {
            do {
                try migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                let done = try writer.read { try migrator.hasCompletedMigrations($0) }
                if done { return }
                if attempt >= 3 { throw error }
            }
        }
    }
}
