/// The kind of server, told apart by its answer to `GET /todos`.
public enum ServerKind: String, Sendable, Hashable, CaseIterable {
    /// This package's server: a change feed and conditional writes.
    case todoServer = "todo-server"
    /// Any json-server-style server: the full list on every sync.
    case jsonServer = "json-server"
}

/// Everything one sync needs to know besides the data.
public struct SyncConfiguration: Sendable, Hashable {
    /// The server's base URL, without the collection path.
    public var server: String
    public var collectionPath: String
    public var token: String?
    /// nil: detect it (and remember it).
    public var kind: ServerKind?
    public var names: FieldNames
    public var prefer: ConflictPreference
    /// Allow a sync that deletes every synced todo here.
    public var force: Bool

    public init(
        server: String, collectionPath: String = "/todos", token: String? = nil, kind: ServerKind? = nil,
        names: FieldNames = FieldNames(), prefer: ConflictPreference = .newest, force: Bool = false
    ) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.collectionPath = collectionPath
        self.token = token
        self.kind = kind
        self.names = names
        self.prefer = prefer
        self.force = force
    }
}

/// Names of the settings sync keeps in the database.
public enum SyncSettingKey {
    public static let server = "sync.server"
    public static let kind = "sync.kind"
    public static let cursor = "sync.cursor"
    public static let titleField = "sync.titleField"
    public static let completedField = "sync.completedField"
    public static let lastSyncAt = "sync.lastSyncAt"
    public static let lastSummary = "sync.lastSummary"
}
