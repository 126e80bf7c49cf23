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
        // The usual list is scanned in one pass; anything unusual is decoded.
        let values = try RemoteListScanner.items(in: response.body, names: configuration.names)
            ?? decodeList([RemoteListElement].self, response, request: request) { value in
                guard case .array = value else { throw SyncError.malformed(request: request, reason: "not a JSON array") }
            }.map(\.todo)
        var listing = Listing(items: [], skipped: [], hasUnidentified: false, cursor: response.headers["x-cursor"])
        listing.items.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            if let item = value {
                listing.items.append(item)
            } else {
                // Unreadable means no usable id: nothing names it but its place.
                listing.hasUnidentified = true
                listing.skipped.append("item #\(index + 1)")
            }
        }
        return listing
    }

    public func fetchChanges(since cursor: String) async throws -> FeedPage {
        let query = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let response = try await send("GET", collectionURL + "?_since=" + query + "&_limit=\(Self.feedPageSize)", allow: [410])
        let request = "GET \(configuration.collectionPath)?_since=\(cursor)"
        if response.status == 410 { throw SyncError.cursorExpired }
        let body = try decodeList(FeedBody.self, response, request: request) { _ in
            throw SyncError.malformed(request: request, reason: "not a change feed")
        }
        var page = FeedPage(items: [], deleted: [], skipped: [], cursor: body.cursor, more: body.more)
        for value in body.items {
            if let item = value.todo {
                page.items.append(item)
            } else {
                page.skipped.append("an item without id")
            }
        }
        page.deleted = body.deleted.compactMap(\.id)
        return page
    }

    /// How many changes one page of the feed asks for.
    static let feedPageSize = 1000

    /// A change feed page, as todo-server sends it: `items` and `cursor` are
    /// required; `deleted` and `more` are read if they have their types.
    struct FeedBody: Decodable {
        var items: [RemoteListElement]
        var deleted: [RemoteListID]
        var cursor: String
        var more: Bool

        enum CodingKeys: String, CodingKey { case items, deleted, cursor, more }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            items = try container.decode([RemoteListElement].self, forKey: .items)
            cursor = try container.decode(String.self, forKey: .cursor)
            deleted = (try? container.decode([RemoteListID].self, forKey: .deleted)) ?? []
            more = (try? container.decode(Bool.self, forKey: .more)) ?? false
        }
    }

    /// Decodes a list straight to the fields sync reads. If that fails, the
    /// body is read as a plain JSON value for the error: `wrongShape` throws
    /// the error for a value of the wrong shape, `parse` the one for bad JSON.
    func decodeList<T: Decodable>(
        _ type: T.Type, _ response: HTTPResponseData, request: String, wrongShape: (JSONValue) throws -> Void
    ) throws -> T {
        do {
            return try RemoteTodo.decoder(names: configuration.names).decode(type, from: Data(response.body))
        } catch {
            try wrongShape(try parse(response, request: request))
            throw SyncError.malformed(request: request, reason: "unreadable: \(error)")
        }
    }

    /// Creates the todo, marked with its UUID (and, on todo-server, with it as its id).
    public func create(todoId: UUID, fields: SyncFields, kind: ServerKind) async throws -> WriteResult {
        var object = body(fields, changed: Set(SyncField.allCases))
        object[configuration.names.marker] = .string(todoId.lowercasedString)
        if kind == .todoServer { object["id"] = .string(todoId.lowercasedString) }
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
