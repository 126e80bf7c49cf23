import Foundation
import TodoCore

/// Where the server keeps its data: a SQLite file, or a PostgreSQL database
/// that several servers may share.
public enum ServerDatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// `--database` as given (else `TODO_SERVER_DATABASE`, else
    /// `todo-server.sqlite` in `DataHome`): a `postgres://` or
    /// `postgresql://` URL names a PostgreSQL database; anything else is a
    /// SQLite file's path.
    public static func resolve(
        explicit: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerDatabaseError) -> ServerDatabaseLocation {
        let given = explicit.flatMap { $0.isEmpty ? nil : $0 } ?? environment["TODO_SERVER_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let given, PostgresLocation.isURL(given) {
            return .postgres(try PostgresLocation(url: given, environment: environment))
        }
        return .sqlite(path: given ?? DataHome.path(of: "todo-server.sqlite", environment: environment))
    }

    /// How the location is shown in logs and errors: never a password.
    public var displayName: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.displayName
        }
    }
}
