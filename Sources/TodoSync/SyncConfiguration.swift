import Foundation

/// The kind of server, told apart by its answer to `GET /todos`.
public enum ServerKind: String, Sendable, Hashable, CaseIterable {
    /// This package's server: a change feed and conditional writes.
    case todoServer = "todo-server"
    /// Any json-server-style server: the full list on every sync.
    case jsonServer = "json-server"
    /// One task list on a CalDAV server (`caldav+https://…`): its sync
    /// token (or CTag) tells what changed, its ETags guard every write.
    case calDAV = "caldav"
}

/// How to ask a server that pages its list without saying how for each page:
/// `?PAGE=N&SIZE=M`, from `firstPage` on.
public struct ListPaging: Sendable, Hashable, CustomStringConvertible {
    public var pageParam: String
    public var sizeParam: String
    public var firstPage: Int
    public var pageSize: Int

    public init(pageParam: String, sizeParam: String, firstPage: Int = 1, pageSize: Int = 100) {
        self.pageParam = pageParam
        self.sizeParam = sizeParam
        self.firstPage = firstPage
        self.pageSize = pageSize
    }

    public var description: String { "\(pageParam)=\(firstPage)&\(sizeParam)=\(pageSize)" }
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
    /// Allow a sync that deletes every synced todo here, or many of them.
    public var force: Bool
    /// Where the safety rail stops deletions (and `force` is off), sync
    /// everything else and hold them back (`SyncSummary.heldBack`), rather
    /// than stop the whole sync: a live view, which asks about them.
    public var holdsRailedDeletions = false
    /// The paging the user named for a server that does not announce its own.
    public var paging: ListPaging?
    /// The account on a CalDAV server (HTTP Basic), for a `caldav+` server.
    public var login: CalDAVLogin?

    public init(
        server: String, collectionPath: String = "/todos", token: String? = nil, kind: ServerKind? = nil,
        names: FieldNames = FieldNames(), prefer: ConflictPreference = .newest, force: Bool = false,
        paging: ListPaging? = nil, login: CalDAVLogin? = nil
    ) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.collectionPath = collectionPath
        self.token = token
        self.kind = kind ?? (Self.isCalDAV(server) ? .calDAV : nil)
        self.names = names
        self.prefer = prefer
        self.force = force
        self.paging = paging
        self.login = login
    }

    /// The prefix that names a CalDAV task list as a sync server.
    public static let calDAVPrefix = "caldav+"

    /// Whether `server` names a CalDAV task list (`caldav+https://…`).
    public static func isCalDAV(_ server: String) -> Bool {
        server.lowercased().hasPrefix(calDAVPrefix)
    }

    /// The base URL a user meant: the collection's own URL (`…/todos`, as
    /// curl examples write it) is its server's base URL.
    public static func baseURL(_ given: String, collectionPath: String = "/todos") -> String {
        var url = given.hasSuffix("/") ? String(given.dropLast()) : given
        if url.hasSuffix(collectionPath), URL(string: url)?.path.hasSuffix(collectionPath) == true {
            url.removeLast(collectionPath.count)
        }
        return url
    }

    /// Scheme, host and port of the server, for links that start with `/`.
    public var origin: String {
        guard let url = URL(string: server), let scheme = url.scheme, let host = url.host else { return server }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
