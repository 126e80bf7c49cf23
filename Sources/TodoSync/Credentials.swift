import Foundation

/// Tokens remembered per server, so `todo sync --token T` once is enough for
/// every later sync and for `todo ui`'s, and CalDAV names and passwords per
/// server: kept in a file only the user can read and write (mode 0600, in a
/// folder of mode 0700), never in the database (which is copied, synced and
/// shared) and never printed.
public struct Credentials: Sendable {
    /// The file: `$XDG_CONFIG_HOME/todo/credentials.json`, else `~/.config/todo/credentials.json`.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The file for this user's environment.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> Credentials {
        // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return Credentials(path: config + "/todo/credentials.json")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return Credentials(path: home + "/.config/todo/credentials.json")
    }

    /// The token remembered for `server`, if any (an unreadable file remembers none).
    public func token(for server: String) -> String? {
        (stored()["tokens"] as? [String: String])?[Self.key(server)]
    }

    /// Remembers `token` for `server`, replacing any before it.
    public func remember(_ token: String, for server: String) throws(SyncError) {
        var file = stored()
        var tokens = file["tokens"] as? [String: String] ?? [:]
        guard tokens[Self.key(server)] != token else { return }
        tokens[Self.key(server)] = token
        file["tokens"] = tokens
        try write(file)
    }

    /// The CalDAV name and password remembered for `server` (its origin), if any.
    public func login(for server: String) -> CalDAVLogin? {
        guard let entry = (stored()["logins"] as? [String: [String: String]])?[Self.key(server)],
              let user = entry["user"], let password = entry["password"] else { return nil }
        return CalDAVLogin(user: user, password: password)
    }

    /// Remembers a CalDAV name and password for `server` (its origin), replacing any before them.
    public func remember(_ login: CalDAVLogin, for server: String) throws(SyncError) {
        var file = stored()
        var logins = file["logins"] as? [String: [String: String]] ?? [:]
        guard self.login(for: server) != login else { return }
        logins[Self.key(server)] = ["user": login.user, "password": login.password]
        file["logins"] = logins
        try write(file)
    }

    private func write(_ file: [String: Any]) throws(SyncError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys, .prettyPrinted])
            // Written whole beside it, readable by the user alone from the start, then moved over it.
            let temporary = path + ".\(getpid()).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
            try handle.close()
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw .cannotRememberToken(path: path)
        }
    }

    /// The file's object: `tokens` (server → token) and `logins` (server → user and password).
    private func stored() -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// A server as remembered: its URL without a trailing slash.
    static func key(_ server: String) -> String {
        server.hasSuffix("/") ? String(server.dropLast()) : server
    }
}
