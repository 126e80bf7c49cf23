import Foundation

/// A sync put together in one place, for `todo sync` and for `todo ui`'s
/// syncs: the server (named, else `$TODO_SERVER`, else the one the last sync
/// used), its token (given, else `$TODO_TOKEN`, else the credentials file),
/// and the settings the last sync remembered, with this sync's own changes.
public struct SyncSetup: Sendable {
    public var server: String?
    public var token: String?
    public var kind: ServerKind?
    public var prefer: ConflictPreference = .newest
    public var force = false
    public var environment: [String: String]
    /// The account's name on a CalDAV server (else the one remembered for it).
    public var user: String?
    /// Asks the person for the password of a CalDAV account (user, server),
    /// where there is a terminal; nil: no one to ask.
    public var askPassword: (@Sendable (String, String) throws -> String)?

    public init(environment: [String: String], server: String? = nil, token: String? = nil) {
        self.environment = environment
        self.server = server
        self.token = token
    }

    /// The settings the last sync of `store` left, passed through `adjust`
    /// (this sync's field names or paging), and the configuration they make.
    /// Throws `.noServer` when no server is named or remembered, and
    /// `.invalidServerURL` for one that is not an http(s) URL.
    public func resolve(
        store: any SyncStore, adjust: @Sendable (inout SyncSettings) -> Void = { _ in }
    ) async throws -> (settings: SyncSettings, configuration: SyncConfiguration) {
        var settings = try await SyncSettings.load(from: store)
        guard let given = server ?? environment["TODO_SERVER"] ?? settings.server else {
            throw SyncError.noServer
        }
        if SyncConfiguration.isCalDAV(given) {
            // One task list on a CalDAV server: its URL, and the account.
            if token != nil { throw SyncError.notForServer(option: "--token", server: given, use: "--user and a password") }
            var list = URLComponents(url: try CalDAVDiscovery.serverURL(given), resolvingAgainstBaseURL: false)
            // One server however its host was typed.
            let host = list?.host?.lowercased()
            list?.host = host
            guard let url = list?.url else { throw SyncError.invalidServerURL(given) }
            adjust(&settings)
            let configuration = SyncConfiguration(
                server: SyncConfiguration.calDAVPrefix + url.absoluteString, kind: .calDAV, prefer: prefer, force: force,
                login: try login(for: url)
            )
            return (settings, configuration)
        }
        if user != nil { throw SyncError.notForServer(option: "--user", server: given, use: "--token for an account's token") }
        let url = SyncConfiguration.baseURL(given)
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw SyncError.invalidServerURL(url)
        }
        adjust(&settings)
        let token = token ?? environment["TODO_TOKEN"] ?? credentials.token(for: url)
        let configuration = SyncConfiguration(
            server: url, token: token, kind: kind, names: settings.names, prefer: prefer, force: force, paging: settings.paging
        )
        return (settings, configuration)
    }

    /// The account for a CalDAV server: the name given, else the one
    /// remembered for that server; the password from `TODO_PASSWORD`, else
    /// the one remembered for that name, else asked for.
    public func login(for url: URL) throws -> CalDAVLogin {
        let origin = CalDAVDiscovery.origin(of: url)
        let remembered = credentials.login(for: origin)
        guard let user = user ?? remembered?.user else { throw SyncError.noUser(server: origin) }
        if let password = environment["TODO_PASSWORD"] ?? (remembered?.user == user ? remembered?.password : nil) {
            return CalDAVLogin(user: user, password: password)
        }
        guard let askPassword else { throw SyncError.noPassword(user: user) }
        return CalDAVLogin(user: user, password: try askPassword(user, origin))
    }

    /// Where tokens are remembered per server, outside the database.
    public var credentials: Credentials { Credentials.standard(environment: environment) }

    /// The lock one sync of the database at `databasePath` holds while it runs.
    public static func lock(databasePath: String) throws -> SyncLock {
        try SyncLock.acquire(path: databasePath + ".sync-lock")
    }

    /// The same lock, for a live view's syncs: a sync another `todo` started
    /// (a first sync of many todos, say) is waited for up to a minute, on no thread.
    public static func waitForLock(databasePath: String) async throws -> SyncLock {
        try await SyncLock.acquire(path: databasePath + ".sync-lock", waitingUpTo: .seconds(60))
    }
}
