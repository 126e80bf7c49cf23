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
    func open() throws -> AppDatabase {
        var database = try AppDatabase.openForWriting(path: resolvedPath)
        database.bulkInsertWork = database.bulkInsertWork.merging(.syncQueue)
        return database
    }

    /// Opens the database to read it, creating nothing (see `AppDatabase.openForReading`).
    func openForReading() throws -> AppDatabase {
        try AppDatabase.openForReading(path: resolvedPath, explicit: DatabaseLocation.isNamed(explicit: path))
    }

    /// The logic over the opened database, with a fresh state.
    @MainActor
    func logic(reading: Bool = false) throws -> (TodoLogic, AppDatabase) {
        let database = try reading ? openForReading() : open()
        return (TodoLogic(state: TodoState(), storage: database), database)
    }
}

extension AppDatabase {
    /// Opens the database at `path` to change it; a new one is created,
    /// folders and all, and standard error says where.
    static func openForWriting(path: String) throws -> AppDatabase {
        let existed = FileManager.default.fileExists(atPath: path)
        let database = try AppDatabase.open(path: path)
        if !existed {
            FileHandle.standardError.write(Data("Created a new todo database at \(path)\n".utf8))
        }
        return database
    }
}

extension AppDatabase {
    /// The logic over this database, with a fresh state.
    @MainActor
    var logic: TodoLogic { TodoLogic(state: TodoState(), storage: self) }
}

/// `--json`, for commands that print todos.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text (the format is described in Docs/command-line.md).")
    var json = false
}
