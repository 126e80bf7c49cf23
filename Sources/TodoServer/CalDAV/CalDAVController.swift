import Foundation
import Hummingbird
import TodoICalendar
import TodoXML

/// CalDAV (RFC 4791) on the same todos as `/todos`: each account has one
/// task list, `/dav/NAME/tasks/`, whose resources are its todos as VTODOs.
/// Discovery goes `/.well-known/caldav` → `/dav/` → the principal
/// `/dav/NAME/` (also the calendar home) → the list.
///
/// A todo a CalDAV client wrote is served from the text it sent, with only
/// the properties whose meaning changed since rewritten (`VTodo.write`), so
/// nothing another app wrote is lost; any other todo is `<id>.ics`, made from
/// its fields. A resource's ETag is its todo's version, as on `/todos/:id`.
struct CalDAVController<Repository: TodoRepository>: Sendable {
    let repository: Repository
    let accounts: (any AccountStore)?
    let maxBodySize: Int

    static var propfind: HTTPRequest.Method { HTTPRequest.Method("PROPFIND")! }
    /// The methods served on CalDAV's paths, as OPTIONS and a 405 list them.
    static var allowed: String { "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT" }
    /// WebDAV's and CalDAV's other methods: answered 405 (MKCALENDAR may come with lists).
    static var notImplemented: [String] { ["PROPPATCH", "MKCALENDAR", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "ACL"] }
    static var report: HTTPRequest.Method { HTTPRequest.Method("REPORT")! }
    static var collectionName: String { CalDAVPaths.collectionName }

    func addRoutes(to router: Router<TodoRequestContext>) {
        for method in [HTTPRequest.Method.get, .head, Self.propfind, .options] {
            router.on("/.well-known/caldav", method: method) { _, _ in
                Response(status: .movedPermanently, headers: [.location: "/dav/"])
            }
        }
        // A client given the server's base address (as Radicale serves) asks there.
        router.on("/", method: Self.propfind, use: propfindRoot)
        router.on("/dav", method: Self.propfind, use: propfindRoot)
        router.on("/dav/:user", method: Self.propfind, use: propfindPrincipal)
        router.on("/dav/:user/\(Self.collectionName)", method: Self.propfind, use: propfindCollection)
        router.on("/dav/:user/\(Self.collectionName)", method: Self.report, use: report)
        router.on("/dav/:user/\(Self.collectionName)/:name", method: Self.propfind, use: propfindObject)
        router.on("/dav/:user/\(Self.collectionName)/:name", method: .get, use: get)
        router.on("/dav/:user/\(Self.collectionName)/:name", method: .head, use: get)
        router.on("/dav/:user/\(Self.collectionName)/:name", method: .put, use: put)
        router.on("/dav/:user/\(Self.collectionName)/:name", method: .delete, use: delete)
        for path in ["/", "/dav", "/dav/:user", "/dav/:user/\(Self.collectionName)", "/dav/:user/\(Self.collectionName)/:name"] {
            router.on(RouterPath(path), method: .options) { _, _ in
                Response(status: .ok, headers: [.dav: "1, 3, calendar-access", .allow: Self.allowed])
            }
        }
        // WebDAV methods this server does not implement, anywhere under /dav
        // (a new list's MKCALENDAR too): 405 with what it does (RFC 9110, 15.5.6).
        let collection = "/dav/:user/\(Self.collectionName)"
        for path in ["/dav", "/dav/:user", collection, collection + "/:name", "/dav/:user/:list", "/dav/:user/:list/:name"] {
            for method in Self.notImplemented {
                router.on(RouterPath(path), method: HTTPRequest.Method(method)!) { request, _ -> Response in
                    throw ServerError(
                        .methodNotAllowed, "\(request.method.rawValue) is not served here; this list answers \(Self.allowed).",
                        headers: [.allow: Self.allowed]
                    )
                }
            }
        }
    }

    // MARK: - Who and where

    /// The name in the paths of the account the request acts for.
    func user(_ context: TodoRequestContext) async throws -> String {
        if let name = context.accountName { return name }
        if context.account != .single, let accounts, let name = try await accounts.name(of: context.account) { return name }
        return CalDAVPaths.singleListUser
    }

    /// The todos of the account the request names: another account's are 404, as on `/todos`.
    func todos(_ request: Request, _ context: TodoRequestContext) async throws -> (Repository, CalDAVPaths) {
        let user = try await user(context)
        let named = context.parameters.get("user").map { $0.removingPercentEncoding ?? $0 }
        guard named == user else {
            throw ServerError(.notFound, "No such CalDAV principal here: this account's is /dav/\(user)/.")
        }
        return (repository.scoped(to: context.account), CalDAVPaths(user: user))
    }

    /// The resource name the request's path ends in, percent-decoded.
    static func name(_ request: Request) -> String {
        let last = request.uri.path.split(separator: "/").last.map(String.init) ?? ""
        return last.removingPercentEncoding ?? last
    }

    /// Whether the resource name the request's path ends in can be stored and
    /// asked for again: it decodes, and holds no NUL or `/` once decoded.
    static func isUsableName(_ request: Request) -> Bool {
        guard let last = request.uri.path.split(separator: "/").last, let name = String(last).removingPercentEncoding else { return false }
        return !name.isEmpty && !name.contains("\0") && !name.contains("/")
    }

    /// The resource `name` of the account, or nil: a name a client gave, else `<id>.ics`.
    static func object(named name: String, in todos: Repository) async throws -> CalendarObject? {
        if let id = try await todos.calendarIDs(names: [name])[name] {
            return try await todos.calendarObjects(ids: [id]).first { $0.name == name }
        }
        guard name.hasSuffix(".ics") else { return nil }
        return try await todos.calendarObjects(ids: [String(name.dropLast(4))]).first { $0.name == nil }
    }

    /// The iCalendar text a resource serves: the text a client sent, with
    /// the properties whose meaning the todo's fields changed rewritten.
    /// The text a PUT stored is that, made at the todo's version then: while
    /// the todo stays at it, the text is served as stored (a calendar-query
    /// of 10,000 resources in 0.14 s, not 0.41 s; BENCHMARKS.md, CalDAV).
    static func calendarText(_ object: CalendarObject) -> String {
        if object.servesStoredText, let ics = object.ics { return ics }
        return composedText(object)
    }

    /// The text made from the todo's fields over the text a client sent:
    /// only the properties of the fields that changed since it was stored
    /// are rewritten (those that differ from the todo's JSON object then).
    static func composedText(_ object: CalendarObject) -> String {
        String(decoding: composedCalendar(object).bytes(), as: UTF8.self)
    }

    /// The calendar object a resource serves, as read: what a calendar-query
    /// filters (the stored text parsed, else the composition, not written
    /// out and parsed again).
    static func calendar(_ object: CalendarObject) -> ICalendarComponent? {
        if object.servesStoredText, let ics = object.ics { return try? ICalendarComponent.read(Array(ics.utf8)) }
        return composedCalendar(object)
    }

    static func composedCalendar(_ object: CalendarObject) -> ICalendarComponent {
        let then = object.icsBody.map { CalDAVMapping.fields(of: StoredTodo(id: object.todo.id, version: object.icsVersion ?? 0, json: $0)) }
        return composedCalendar(object.todo, over: object.ics.flatMap { try? ICalendarComponent.read(Array($0.utf8)) }, was: then)
    }

    /// `calendar` (or a new one) rewritten to say what `todo`'s fields say
    /// where they differ from `was`, the fields the calendar's lines said
    /// in the todo's terms (nil: as read from the calendar). Comparing with
    /// the todo's own earlier fields keeps a line the mapping reads other
    /// than it was written (a category with a space, a DTSTART with a
    /// TZID, a STATUS:COMPLETED with no COMPLETED) while its field is not edited.
    static func composedCalendar(_ todo: StoredTodo, over calendar: ICalendarComponent?, was: VTodoFields?) -> ICalendarComponent {
        let fields = CalDAVMapping.fields(of: todo)
        return VTodo.write(
            fields, over: calendar, was: was, timeZone: CalDAVPaths.floating, now: fields.updatedAt ?? Date(timeIntervalSince1970: 0)
        )
    }

    static func composed(_ todo: StoredTodo, over calendar: ICalendarComponent?, was: VTodoFields?) -> String {
        String(decoding: composedCalendar(todo, over: calendar, was: was).bytes(), as: UTF8.self)
    }

    // MARK: - Resources

    @Sendable func get(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, _) = try await todos(request, context)
        let name = Self.name(request)
        guard let object = try await Self.object(named: name, in: todos) else {
            throw ServerError(.notFound, "No task named \(name) in this list.")
        }
        let etag = ETag.string(for: object.todo.version)
        if request.headers[values: .ifNoneMatch].contains(where: { $0 == etag || $0 == "*" }) {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return Response(
            status: .ok,
            headers: [.contentType: CalDAVPaths.calendarContentType, .eTag: etag],
            body: .init(byteBuffer: ByteBuffer(string: Self.calendarText(object)))
        )
    }

    @Sendable func put(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, paths) = try await todos(request, context)
        let name = Self.name(request)
        guard Self.isUsableName(request) else {
            throw ServerError.badRequest(
                "The resource name \(request.uri.path.split(separator: "/").last.map(String.init) ?? "") is not one a client can ask for again "
                    + "(it does not decode, or holds NUL or /); name it with letters, digits and - _ . @, e.g. UID.ics."
            )
        }
        let body = try await RequestBody.read(request, maxBodySize: maxBodySize)
        var calendar: ICalendarComponent
        let fields: VTodoFields
        do {
            calendar = try ICalendarComponent.read(body)
            try VTodo.checkReadable(calendar)
            let written = try VTodo.fields(of: calendar, timeZone: CalDAVPaths.floating, asWritten: true)
            fields = VTodo.pastCompletedInstances(written, in: calendar, timeZone: CalDAVPaths.floating)
            // A series another app moved on by completing one occurrence as
            // an instance of its own is kept with its dates where they moved
            // to, so every client reads the same next occurrence.
            if fields != written {
                calendar = VTodo.write(fields, over: calendar, was: written, timeZone: CalDAVPaths.floating, now: Date())
            }
        } catch let error as UnreadableTask {
            let condition = error == .nestedTask || error == .twoSeries ? "valid-calendar-object-resource" : "valid-calendar-data"
            return Multistatus.error(.badRequest, DAV.Property(DAV.caldav, condition), error.message)
        } catch let error as ICalendarError {
            return Multistatus.error(.badRequest, DAV.Property(DAV.caldav, "valid-calendar-data"), error.message)
        } catch let error as VTodoError {
            let condition = error == .event ? "supported-calendar-component" : "valid-calendar-object-resource"
            return Multistatus.error(error == .event ? .forbidden : .badRequest, DAV.Property(DAV.caldav, condition), error.message)
        }
        let existing = try await Self.object(named: name, in: todos)
        if let existing, existing.todo.id != fields.uid {
            return Multistatus.error(.conflict, DAV.Property(DAV.caldav, "no-uid-conflict"),
                "This resource holds the task \(existing.todo.id); a resource keeps its UID: PUT the task \(fields.uid) under a name of its own.")
        }
        if existing == nil, let other = try await todos.calendarObjects(ids: [fields.uid]).first {
            let href = paths.href(other.name ?? other.todo.id + ".ics")
            return Multistatus.error(.conflict, DAV.Property(DAV.caldav, "no-uid-conflict"),
                "The task \(fields.uid) is stored already, as \(href); PUT it there.")
        }
        let ifMatch = IfMatch(headers: request.headers)
        if request.headers[values: .ifNoneMatch].contains("*"), existing != nil {
            throw ServerError(.preconditionFailed, "\(name) exists already (If-None-Match: *); GET it, then PUT with If-Match.")
        }
        if existing == nil, ifMatch != nil {
            throw ServerError(.preconditionFailed, "\(name) does not exist, so no If-Match can hold; PUT it with If-None-Match: *.")
        }
        let current = existing.map { CalDAVMapping.fields(of: $0.todo) }
        var members = CalDAVMapping.members(for: fields, over: current, now: Date())
        if existing == nil { members["id"] = fields.uid }
        let payload = try TodoPayload(body: CalDAVMapping.json(members))
        let operation = BatchOperation(method: existing == nil ? .create : .patch, id: fields.uid, ifMatch: ifMatch, payload: payload)
        // Kept as GET will serve it at this version: the calendar as sent
        // (from the parse, never from the bytes decoded whole: a fold inside
        // a character is not text on its own), with nothing rewritten, as
        // the todo says what it says.
        let sent = calendar
        let render: @Sendable (StoredTodo) -> String = { stored in
            Self.composed(stored, over: sent, was: CalDAVMapping.fields(of: stored))
        }
        let stored = try await todos.putCalendarObject(name: name, id: fields.uid, operation: operation, render: render)
        var headers: HTTPFields = [:]
        // An ETag only when what GET now serves is exactly what was sent (RFC 4791, 5.3.4).
        if Array(render(stored).utf8) == body { headers[.eTag] = ETag.string(for: stored.version) }
        return Response(status: existing == nil ? .created : .noContent, headers: headers)
    }

    @Sendable func delete(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, _) = try await todos(request, context)
        let name = Self.name(request)
        guard let object = try await Self.object(named: name, in: todos) else {
            throw ServerError(.notFound, "No task named \(name) in this list.")
        }
        _ = try await todos.delete(id: object.todo.id, ifMatch: IfMatch(headers: request.headers))
        return Response(status: .noContent)
    }
}

extension HTTPFields.Element.Name {
    /// The WebDAV compliance classes a resource offers (RFC 4918, 10.1).
    static let dav = Self("DAV")!
    /// How deep a PROPFIND goes (RFC 4918, 10.2).
    static let depth = Self("Depth")!
}

extension HTTPResponse.Status {
    /// WebDAV's answer with a status per resource (RFC 4918, 11.1).
    static let multiStatus = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")
}
