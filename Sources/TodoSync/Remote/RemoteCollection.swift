import Foundation
import TodoCore

/// The REST collection on the server (`/todos`): each call is one request,
/// its answer read tolerantly and its failure turned into a `SyncError`.
public struct RemoteCollection: Sendable {
    public let configuration: SyncConfiguration
    let transport: any HTTPTransport
    /// Todos the server knows by ids of their own (a todo-server task a
    /// CalDAV app made is known by its UID): links to them name those.
    let uidNames = UIDNames()

    public init(configuration: SyncConfiguration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// What `GET /todos` gave, every page of it: the items it could read, and those it could not.
    public struct Listing: Sendable {
        public var items: [RemoteTodo] = []
        /// Ids (or positions) of items that could not be read: left alone.
        public var skipped: [String] = []
        /// Whether some unreadable item had no id: then no absence proves a deletion.
        public var hasUnidentified = false
        /// todo-server's `X-Cursor`: present only there.
        public var cursor: String?
        /// The server closes its connection after every response (HTTP/1.0
        /// style): requests are then sent one at a time.
        public var closesConnections = false
        /// A digest of every page's bytes, to tell an unchanged list cheaply.
        public var digest = ListDigest()
        /// How many pages were read.
        public var pages = 0
        /// The list is the one of the digest asked about: its items were not read.
        public var unchanged = false
    }

    /// One page of todo-server's change feed.
    public struct FeedPage: Sendable {
        public var items: [RemoteTodo]
        public var deleted: [String]
        public var skipped: [String]
        public var cursor: String
        public var more: Bool
        /// Items the page names at the version their base records (a CalDAV
        /// list names our own writes back): not read again.
        public var unchanged: [String] = []
    }

    public enum WriteResult: Sendable, Hashable {
        case done(RemoteTodo?)
        /// 404: the item is gone on the server.
        case missing
        /// 412 (todo-server): it changed since we read it; fetch and merge again.
        case stale
        /// 409 on create: an item with this id exists already.
        case exists
    }

    var collectionURL: String { configuration.server + configuration.collectionPath }

    func itemURL(_ id: String) -> String {
        collectionURL + "/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id)
    }

    public func fetchChanges(since cursor: String) async throws -> FeedPage {
        let query = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let response = try await send("GET", collectionURL + "?_since=" + query + "&_limit=\(Self.feedPageSize)", allow: [410])
        let request = "GET \(configuration.collectionPath)?_since=\(cursor)"
        if response.status == 410 { throw SyncError.cursorExpired }
        guard case let .object(object) = try parse(response, request: request),
              case let .array(items)? = object["items"], case let .string(next)? = object["cursor"]
        else {
            throw SyncError.malformed(request: request, reason: "not a change feed")
        }
        var more = false
        if case let .bool(flag)? = object["more"] { more = flag }
        var page = FeedPage(items: [], deleted: [], skipped: [], cursor: next, more: more)
        for value in items {
            if let item = RemoteTodo(json: value, names: configuration.names) {
                page.items.append(item)
            } else {
                page.skipped.append("an item without id")
            }
        }
        if case let .array(deleted)? = object["deleted"] {
            page.deleted = deleted.compactMap { $0["id"].flatMap(RemoteTodo.idText) }
        }
        return page
    }

    /// How many changes one page of the feed asks for.
    static let feedPageSize = 1000

    /// Creates the todo, marked with its UUID (and, on todo-server, with it
    /// as its id), with its dates and edit times.
    func create(_ todo: TodoItem, fields: SyncFields, editedAt: FieldTimes, server: RemoteCapabilities) async throws -> WriteResult {
        let object = createBody(todo, fields: fields, editedAt: editedAt, keepsID: server.keepsClientIDs)
        let response = try await send("POST", collectionURL, body: .object(object), allow: [409])
        if response.status == 409 { return .exists }
        let request = "POST \(configuration.collectionPath)"
        guard let item = RemoteTodo(json: try parse(response, request: request), names: configuration.names) else {
            throw SyncError.missingId(request: request)
        }
        return .done(item)
    }

    /// Sends only the changed fields with their edit times, never the id.
    public func update(
        id: String, version: Int?, fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes, local: TodoItem?,
        dates: Bool = false, keptTags: [String] = []
    ) async throws -> WriteResult {
        let object = body(fields, changed: changed, editedAt: editedAt, local: local, dates: dates, keptTags: keptTags)
        let response = try await send("PATCH", itemURL(id), body: .object(object), ifMatch: version, allow: [404, 410, 412])
        return result(response)
    }

    public func delete(id: String, version: Int?) async throws -> WriteResult {
        result(try await send("DELETE", itemURL(id), ifMatch: version, allow: [404, 410, 412]))
    }

    func result(_ response: HTTPResponseData) -> WriteResult {
        switch response.status {
        case 404, 410: return .missing
        case 412: return .stale
        default:
            let item = (try? JSONValue.parse(response.body)).flatMap { RemoteTodo(json: $0, names: configuration.names) }
            return .done(item)
        }
    }

    /// The changed fields, each with its edit time, and the dates that go
    /// with them (`createdAt` and `completedAt` too, with `dates`), from
    /// `local`, the todo as it is stored here once the write is done. Tags
    /// go with `keptTags`: the server's that no tag of ours can be stay there.
    func body(
        _ fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes, local: TodoItem?, dates: Bool = false,
        keptTags: [String] = []
    ) -> [String: JSONValue] {
        let names = configuration.names
        var object: [String: JSONValue] = [:]
        func time(_ date: Date?) -> JSONValue { date.map { .string(ISO8601.string(from: $0)) } ?? .null }
        for field in TodoField.allCases where changed.contains(field) {
            object[names.name(of: field)] = JSONValue(fields[value: field])
            object[names.editedAtName(of: field)] = time(editedAt[field])
        }
        if changed.contains(.done) {
            object[names.completedAt] = fields.isDone ? time(local?.completedAt ?? editedAt[.done]) : .null
        }
        // A linked todo the server knows by an id of its own is named by it.
        if changed.contains(.parent), let parent = fields.parent {
            object[names.name(of: .parent)] = .string(uidNames.name(parent))
        }
        if changed.contains(.blockedBy) {
            object[names.name(of: .blockedBy)] = .array(fields.blockedBy.map { .string(uidNames.name($0)) })
        }
        if changed.contains(.tags), !keptTags.isEmpty {
            object[names.tags] = .array((fields.tags + keptTags).map(JSONValue.string))
        }
        if dates, let local {
            object[names.createdAt] = time(local.createdAt)
            object[names.completedAt] = fields.isDone ? time(local.completedAt) : .null
        }
        if let changedAt = local?.lastChanged ?? editedAt.latest { object[names.updatedAt] = time(changedAt) }
        return object
    }
}

extension RemoteCollection {
    /// One item by id; `.missing` if there is none (404 or 410).
    public func fetchOne(id: String) async throws -> WriteResult {
        result(try await send("GET", itemURL(id), allow: [404, 410]))
    }

    /// The item marked with this todo's UUID, asked by the marker as a
    /// filter (`GET /todos?clientId=…`, as json-server filters). A server
    /// that ignores the filter answers its list (or a page of it): the item
    /// is looked for in whatever came. Nil: not found in the answer.
    public func find(marked todoId: UUID) async throws -> RemoteTodo? {
        let marker = configuration.names.marker.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "=", "+"])) ?? ""
        let request = "GET \(configuration.collectionPath)?\(marker)=…"
        let response = try await send("GET", collectionURL + "?" + marker + "=" + todoId.lowercasedString, allow: [400, 404])
        guard (200..<300).contains(response.status) else { return nil }
        return try Self.readPage(response, names: configuration.names, request: request).items
            .first { $0?.todoId == todoId } ?? nil
    }
}
