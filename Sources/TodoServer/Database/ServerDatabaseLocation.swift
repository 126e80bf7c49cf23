import Foundation

/// Where the server's database lives when `--database` is not given.
public enum ServerDatabaseLocation {
    /// `explicit` if given, else `$XDG_DATA_HOME/todo/todo-server.sqlite`,
    /// else `~/.local/share/todo/todo-server.sqlite`.
    public static func resolve(
        explicit: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty {
            return explicit
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/todo/todo-server.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/todo/todo-server.sqlite"
    }
}
