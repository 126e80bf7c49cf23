/// Why the database could not be used, worded for the person at the terminal.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    /// A read of a database file that is not there.
    case noDatabase(path: String)
    case notADatabase(path: String)
    /// An SQLite file whose pages cannot be read: overwritten, truncated.
    case damaged(path: String)
    case newerVersion(path: String)
    case busy(path: String)
    case readOnly(path: String)
    /// A write to a database in a folder this process cannot write.
    case readOnlyFolder(path: String, folder: String)
    /// A database from an older version, in a place this process cannot write.
    case readOnlyTooOld(path: String)
    case sqlite(String)

    public var description: String {
        switch self {
        case let .cannotCreateDirectory(path, reason):
            "cannot create the folder for the database at \(path) (\(reason)): choose another place with --database PATH or TODO_DATABASE"
        case let .cannotOpen(path, reason):
            "cannot open the database at \(path) (\(reason)): check the path, or choose another with --database PATH or TODO_DATABASE"
        case let .noDatabase(path):
            "there is no todo database at \(path): check the path (a command that adds todos creates it there)"
        case let .notADatabase(path):
            "\(path) is not a todo database (not SQLite): it was left untouched; point --database at another file"
        case let .damaged(path):
            "\(path) is a damaged SQLite database (overwritten or cut short): it was left untouched; save what it holds with "
                + "sqlite3 \(path) .recover | sqlite3 recovered.sqlite and use --database recovered.sqlite, or restore a backup"
        case let .newerVersion(path):
            "\(path) was written by a newer version of todo: it was left untouched; upgrade todo to use it"
        case let .busy(path):
            "the database at \(path) stayed locked by another program for too long: try again when it finishes"
        case let .readOnly(path):
            "the database at \(path) is read-only: make it writable, or choose another with --database PATH"
        case let .readOnlyFolder(path, folder):
            "the folder \(folder) is read-only, so the database \(path) can be listed but not changed: make the folder writable, or copy the database elsewhere and use --database PATH"
        case let .readOnlyTooOld(path):
            "\(path) was written by an older version of todo and must be upgraded, but it is read-only here: make it and its folder writable once, or copy it elsewhere and use --database PATH"
        case let .sqlite(message):
            "database error: \(message)"
        }
    }
}
