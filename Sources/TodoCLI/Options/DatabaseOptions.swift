import ArgumentParser
import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// The options every command shares: which database to use.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "The SQLite file to use (default: $TODO_DATABASE, else $XDG_DATA_HOME/todo/todo.sqlite, else ~/.local/share/todo/todo.sqlite).",
            valueName: "path"
        )
    )
    var path: String?

    init() {}

    /// The options `--database path` gives (nil: the default database).
    init(path: String?) {
        self.path = path
    }

    func validate() throws {
        // An empty path would quietly mean the default database.
        if path?.isEmpty == true {
            throw ValidationError("--database is empty: give the database file's path, or leave --database out for the default")
        }
    }

    /// The database file this command uses.
    var resolvedPath: String { DatabaseLocation.resolve(explicit: path) }

    /// Opens the database to change it, creating it on first use (and saying
    /// where), with sync's queue filled at once by a large import or undo.
    /// The one place the command line opens the database: everything else
    /// reads and writes it through the core's protocols (`TodoDatabase`) or
    /// sync's store over it (`SQLiteSyncStore`).
    func openForSync(reading: Bool = false) throws -> AppDatabase {
        guard !reading else { return try readOnly() }
        // A new one is created, folders and all, and standard error says where.
        let existed = FileManager.default.fileExists(atPath: resolvedPath)
        var database = try AppDatabase.open(path: resolvedPath)
        if !existed {
            FileHandle.standardError.write(Data("Created a new todo database at \(resolvedPath)\n".utf8))
        }
        database.bulkInsertWork = database.bulkInsertWork.merging(.syncQueue)
        return database
    }

    /// Opens the database to change it, creating it on first use.
    func open() throws -> any TodoDatabase {
        try openForSync()
    }

    /// Opens the database to read it, creating nothing (see `AppDatabase.openForReading`).
    func openForReading() throws -> any TodoDatabase {
        try readOnly()
    }

    private func readOnly() throws -> AppDatabase {
        try AppDatabase.openForReading(path: resolvedPath, explicit: DatabaseLocation.isNamed(explicit: path))
    }

    /// The logic over the opened database, with a fresh state.
    @MainActor
    func logic(reading: Bool = false) throws -> (TodoLogic, any TodoDatabase) {
        let database = try reading ? openForReading() : open()
        return (TodoLogic(over: database), database)
    }
}

extension TodoLogic {
    /// The logic over `database`, with a fresh state.
    convenience init(over database: any TodoDatabase) {
        self.init(state: TodoState(), storage: database)
    }
}

/// `--json`, for commands that print todos.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text (the format is described in Docs/command-line.md).")
    var json = false
}
