import Foundation
import TodoCore

/// The REST collection on the server (`/todos`): each call is one request,
/// its answer read tolerantly and its failure turned into a `SyncError`.
public struct RemoteCollection: Sendable {
    public let configuration: SyncConfiguration
    let transport: any HTTPTransport

    public init(configuration: SyncConfiguration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// What `GET /todos` gave: the items it could read, and those it could not.
    public struct Listing: Sendable {
        public var items: [RemoteTodo]
        /// Ids (or positions) of items that could not be read: left alone.
        public var skipped: [String]
        /// Whether some unreadable item had no id: then no absence proves a deletion.
        public var hasUnidentified: Bool
        /// todo-server's `X-Cursor`: present only there.
        public var cursor: String?
    }

    /// One page of todo-server's change feed.
    public struct FeedPage: Sendable {
        public var items: [RemoteTodo]
        public var deleted: [String]
        public var skipped: [String]
        public var cursor: String
        public var more: Bool
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

    public func fetchAll() async throws -> Listing {
        let response = try await send("GET", collectionURL)
        let request = "GET \(configuration.collectionPath)"
        guard case let .array(values) = try parse(response, request: request) else {
            throw SyncError.malformed(request: request, reason: "not a JSON array")
        }
        var listing = Listing(items: [], skipped: [], hasUnidentified: false, cursor: response.headers["x-cursor"])
        for (index, value) in values.enumerated() {
            if let item = RemoteTodo(json: value, names: configuration.names) {
                listing.items.append(item)
            } else {
                let id = value["id"].flatMap(RemoteTodo.idText)
                listing.hasUnidentified = listing.hasUnidentified || id == nil
                listing.skipped.append(id ?? "item #\(index + 1)")
            }
        }
        return listing
    }

    public func fetchChanges(since cursor: String) async throws -> FeedPage {
        let query = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let response = try await send("GET", collectionURL + "?_since=" + query + "&_limit=1000", allow: [410])
        let request = "GET \(configuration.collectionPath)?_since=\(cursor)"
        if response.status == 410 { throw SyncError.cursorExpired }
        let body = try parse(response, request: request)
        guard case let .array(items)? = body["items"], case let .string(next)? = body["cursor"] else {
            throw SyncError.malformed(request: request, reason: "not a change feed")
        }
        var page = FeedPage(items: [], deleted: [], skipped: [], cursor: next, more: body["more"] == .bool(true))
        for value in items {
            if let item = RemoteTodo(json: value, names: configuration.names) {
                page.items.append(item)
            } else {
                page.skipped.append(value["id"].flatMap(RemoteTodo.idText) ?? "an item without id")
            }
        }
        if case let .array(tombstones)? = body["deleted"] {
            page.deleted = tombstones.compactMap { $0["id"].flatMap(RemoteTodo.idText) }
        }
        return page
    }

    /// Creates the todo, marked with its UUID (and, on todo-server, with it as its id).
    public func create(todoId: UUID, fields: SyncFields, kind: ServerKind) async throws -> WriteResult {
        var object = body(fields, changed: Set(SyncField.allCases))
        object[configuration.names.marker] = .string(todoId.uuidString.lowercased())
        if kind == .todoServer { object["id"] = .string(todoId.uuidString.lowercased()) }
        let response = try await send("POST", collectionURL, body: .object(object), allow: [409])
        if response.status == 409 { return .exists }
        let request = "POST \(configuration.collectionPath)"
        guard let item = RemoteTodo(json: try parse(response, request: request), names: configuration.names) else {
            throw SyncError.missingId(request: request)
        }
        return .done(item)
    }

    /// Sends only the changed fields, never the id.
    public func update(id: String, version: Int?, fields: SyncFields, changed: Set<SyncField>) async throws -> WriteResult {
        let response = try await send(
            "PATCH", itemURL(id), body: .object(body(fields, changed: changed)), ifMatch: version, allow: [404, 412]
        )
        return result(response)
    }

    public func delete(id: String, version: Int?) async throws -> WriteResult {
        result(try await send("DELETE", itemURL(id), ifMatch: version, allow: [404, 412]))
    }

    func result(_ response: HTTPResponseData) -> WriteResult {
        switch response.status {
        case 404: return .missing
        case 412: return .stale
        default:
            let item = (try? JSONValue.parse(response.body)).flatMap { RemoteTodo(json: $0, names: configuration.names) }
            return .done(item)
        }
    }

    func body(_ fields: SyncFields, changed: Set<SyncField>) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if changed.contains(.text) { object[configuration.names.title] = .string(fields.text) }
        if changed.contains(.done) { object[configuration.names.completed] = .bool(fields.isDone) }
        return object
    }
}

extension RemoteCollection {
    /// One item by id; `.missing` if there is none.
    public func fetchOne(id: String) async throws -> WriteResult {
        result(try await send("GET", itemURL(id), allow: [404]))
    }
}
