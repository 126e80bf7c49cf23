import Foundation
import TodoCore

/// Where the database file lives when the user does not say.
public enum DatabaseLocation {
    /// `explicit` if given, else `TODO_DATABASE`, else
    /// `$XDG_DATA_HOME/todo/todo.sqlite`, else `~/.local/share/todo/todo.sqlite`.
    public static func resolve(
        explicit: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty {
            return explicit
        }
        if let fromEnvironment = environment["TODO_DATABASE"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return DataHome.path(of: "todo.sqlite", environment: environment)
    }

    /// Whether the user typed the database's path on this command line
    /// (`--database`), where a typo is likely; `TODO_DATABASE`, set once in a
    /// profile, is a place like the default one.
    public static func isNamed(explicit: String?) -> Bool {
        !(explicit ?? "").isEmpty
    }
}
