import Foundation
import Hummingbird

/// The `/todos` resource: json-server's routes, plus versions and a change
/// feed. The same routes serve one shared list at `/lists/OWNER/LIST/todos`
/// (`Scope.list`): its owner's todos on that list, to its owner and to the
/// members who joined it; 404 to anyone else, and 403 to a viewer's write.
public struct TodoController<Repository: TodoRepository>: Sendable {
    let repository: Repository
    /// Largest request body accepted, in bytes; larger ones get 413.
    let maxBodySize: Int
    /// Tells `GET /todos/events` streams about changes.
    let announcer: ChangeAnnouncer
    /// Whose todos the routes serve.
    let scope: Scope
    /// Where a list's event stream asks again, at each change, whether its
    /// requester may still see the list.
    let accounts: (any AccountStore)?

    /// Whose todos a controller's routes serve.
    enum Scope: Sendable {
        /// The request's account's: `/todos`.
        case account
        /// The list the path names (`/lists/:owner/:list/todos`), as the token check found it (`TodoRequestContext.list`).
        case list
    }

    init(repository: Repository, maxBodySize: Int, announcer: ChangeAnnouncer, scope: Scope = .account, accounts: (any AccountStore)? = nil) {
        self.repository = repository
        self.maxBodySize = maxBodySize
        self.announcer = announcer
        self.scope = scope
        self.accounts = accounts
    }

    public var endpoints: RouteCollection<TodoRequestContext> {
        let routes = RouteCollection(context: TodoRequestContext.self)
        // HEAD runs GET's handler; `HeadResponseMiddleware` drops the body.
        routes.get(use: list)
            .head(use: list)
            .post(use: create)
            .post("_batch", use: batch)
            .get("events", use: events)
            .get(":id", use: get)
            .head(":id", use: get)
            .put(":id", use: replace)
            .patch(":id", use: patch)
            .delete(":id", use: delete)
        return routes
    }

    /// `GET /todos`: a bare array, or with `_since` the change feed.
    @Sendable func list(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let query = try TodoQuery(query: request.uri.query)
        if let since = query.since {
            let limit: Int? = if case .limit(let limit) = query.paging { limit } else { nil }
            let feed = try await todos(of: context).changes(since: since, limit: limit)
            let body = #"{"items":\#(feed.itemsJSON),"deleted":\#(feed.deletedJSON),"cursor":"\#(feed.cursor)","more":\#(feed.hasMore)}"#
            return .json(body, headers: [.cursor: String(feed.cursor)])
        }
        let list = try await todos(of: context).list(query)
        let headers: HTTPFields = [.cursor: String(list.cursor), .totalCount: String(list.total)]
        if case .page(let page, let size, envelope: true) = query.paging {
            return .json(PageEnvelope(page: page, size: size, total: list.total).json(data: list.json), headers: headers)
        }
        return .json(list.json, headers: headers)
    }

    /// `GET /todos/events` with `Accept: text/event-stream`: the account's
    /// change announcements (`TodoEventStream`). Without that `Accept`, the
    /// todo whose id is `events`, as for any other id.
    @Sendable func events(_ request: Request, context: TodoRequestContext) async throws -> Response {
        guard TodoEventStream<Repository>.isWanted(request) else {
            return try await get(id: "events", request, context: context)
        }
        let todos = try self.todos(of: context)
        guard let access = context.list, scope == .list, let accounts else {
            return try await TodoEventStream(todos: todos, announcer: announcer, account: context.account).response(request)
        }
        // A list's stream: only the list's changes, and only while the
        // requester may still see it.
        let (member, address) = (context.account, ListAddress(owner: access.ownerName, list: access.list))
        return try await TodoEventStream(todos: todos, announcer: announcer, account: access.owner) { since, cursor in
            guard try await accounts.access(member, to: address) != nil else { return nil }
            guard let cursor, since >= 0, since < cursor else { return true }
            do {
                // The list's first change after `since`, if any: its cursor
                // is that change's, so one made after `cursor` waits for its own event.
                let feed = try await todos.changes(since: since, limit: 1)
                return (feed.itemsJSON != "[]" || feed.deletedJSON != "[]") && feed.cursor <= cursor
            } catch let error as ServerError where error.status == .gone {
                return true
            }
        }.response(request)
    }

    /// `GET /todos/:id`; 304 when `If-None-Match` names its current version.
    @Sendable func get(_ request: Request, context: TodoRequestContext) async throws -> Response {
        try await get(id: try Self.id(context), request, context: context)
    }

    private func get(id: String, _ request: Request, context: TodoRequestContext) async throws -> Response {
        guard let todo = try await todos(of: context).get(id: id) else {
            throw ServerError.notFound(id: id)
        }
        let etag = ETag.string(for: todo.version)
        if request.headers[values: .ifNoneMatch].contains(where: { $0 == etag || $0 == "*" }) {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return .json(todo)
    }

    /// `POST /todos`: 201 with `Location`; 409 if the id is taken.
    @Sendable func create(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let todos = try writableTodos(of: context)
        let payload = try await readPayload(request)
        let todo = try await todos.create(payload)
        let path = todo.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? todo.id
        return .json(todo, status: .created, headers: [.location: "\(Self.collectionPath(of: request))/\(path)"])
    }

    /// `PUT /todos/:id`: replaces the todo's fields.
    @Sendable func replace(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let todos = try writableTodos(of: context)
        let id = try Self.id(context)
        let payload = try await readPayload(request)
        return .json(try await todos.replace(id: id, with: payload, ifMatch: IfMatch(headers: request.headers)))
    }

    /// `PATCH /todos/:id`: a shallow merge.
    @Sendable func patch(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let todos = try writableTodos(of: context)
        let id = try Self.id(context)
        let payload = try await readPayload(request)
        return .json(try await todos.patch(id: id, with: payload, ifMatch: IfMatch(headers: request.headers)))
    }

    /// `DELETE /todos/:id`: 200 with the todo as it was; the ETag is the tombstone's version.
    @Sendable func delete(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let todos = try writableTodos(of: context)
        let id = try Self.id(context)
        return .json(try await todos.delete(id: id, ifMatch: IfMatch(headers: request.headers)))
    }

    /// `POST /todos/_batch`: several writes in one request and one
    /// transaction, each applied whole or not at all and answered on its own:
    /// `{"results": [{"status": 201, "item": {...}}, {"status": 412, "error": "..."}]}`.
    @Sendable func batch(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let todos = try writableTodos(of: context)
        let operations = try BatchOperation.operations(from: try await RequestBody.read(request, maxBodySize: maxBodySize), limit: Self.maxBatchOperations)
        let results = try await todos.batch(operations)
        var body = #"{"results":["#
        for (index, result) in results.enumerated() {
            if index > 0 { body += "," }
            body += #"{"status":\#(result.status)"#
            if let todo = result.todo { body += #","item":\#(todo.json)"# }
            if let error = result.error { body += #","error":\#(Self.quoted(error))"# }
            body += "}"
        }
        return .json(body + "]}")
    }

    /// Most operations one batch may hold.
    static var maxBatchOperations: Int { 1_000 }

    /// Text as a JSON string.
    private static func quoted(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// The repository acting for the request's account, or for the list the
    /// path names: every route reads and writes through it, so none can
    /// reach another account's todos, or another list's. 404 on a list's
    /// route for whoever is neither the list's owner nor a member.
    private func todos(of context: TodoRequestContext) throws -> Repository {
        switch scope {
        case .account:
            return repository.scoped(to: context.account)
        case .list:
            guard let access = context.list else {
                let address = context.parameters.get("owner").flatMap { owner in
                    context.parameters.get("list").map { ListAddress(owner: owner.removingPercentEncoding ?? owner, list: $0.removingPercentEncoding ?? $0) }
                }
                throw ShareRefusal.notAMember(address)
            }
            return repository.scoped(to: access.owner, list: access.list)
        }
    }

    /// As `todos(of:)`, for a write: 403 for a list's viewer, before anything is read.
    private func writableTodos(of context: TodoRequestContext) throws -> Repository {
        let todos = try self.todos(of: context)
        if scope == .list, let access = context.list, !access.mayWrite { throw ShareRefusal.readOnly(access) }
        return todos
    }

    /// The path of the collection a request was sent to: `/todos`, or a list's `/lists/OWNER/LIST/todos`.
    private static func collectionPath(of request: Request) -> String {
        let path = request.uri.path
        return path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    // MARK: - Reading requests

    private static func id(_ context: TodoRequestContext) throws -> String {
        guard let raw = context.parameters.get("id") else {
            throw ServerError.badRequest("The URL has no todo id.")
        }
        return try ItemID.key(inPath: raw)
    }

    /// The body as a checked payload: 413 past the size limit, 400 if not a todo.
    private func readPayload(_ request: Request) async throws -> TodoPayload {
        try TodoPayload(body: try await RequestBody.read(request, maxBodySize: maxBodySize))
    }
}
