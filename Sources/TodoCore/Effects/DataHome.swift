import Foundation

/// Where `todo` and `todo-server` keep their files when told nothing else:
/// `$XDG_DATA_HOME/todo`, else `~/.local/share/todo` (the XDG spec says a
/// relative XDG_DATA_HOME is invalid and must be ignored).
public enum DataHome {
    /// The path of `file` in that folder.
    public static func path(of file: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/todo/" + file
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/todo/" + file
    }
}
