import Foundation
import Hummingbird
import TodoCore
import TodoICalendar
import TodoXML

// MARK: - PROPFIND and REPORT

extension CalDAVController {
    /// Most elements read from a PROPFIND body.
    static var maxElements: Int { 20_000 }
    /// How many times the body limit a `calendar-multiget` may be, and its
    /// most elements: it names every href a client wants, and vdirsyncer
    /// asks for a whole list in one (100,000 hrefs are about 8 MB, 200,000
    /// elements). Read, such a body is about twice its bytes; the answer is
    /// streamed a page at a time. Every other REPORT keeps the body limit.
    static var multigetBodyFactor: Int { 16 }
    static var maxMultigetElements: Int { 400_000 }
    /// Most distinct properties one PROPFIND or REPORT asks for, and most
    /// bytes of their names and namespaces together: each is answered for
    /// every resource, so these bound the answer per resource (clients ask
    /// for a few dozen, under 2 KB).
    static var maxAskedProperties: Int { 100 }
    static var maxAskedPropertyBytes: Int { 4_096 }

    /// The body read as XML; an empty one is nil (PROPFIND's allprop). A
    /// REPORT's may be a `calendar-multiget` of up to `multigetBodyFactor`
    /// times the body limit; any other is refused past the limit, as usual.
    func xml(_ request: Request, report: Bool = false) async throws -> XMLElement? {
        let body = try await RequestBody.read(
            request, maxBodySize: report ? maxBodySize * Self.multigetBodyFactor : maxBodySize
        )
        guard body.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else { return nil }
        let root: XMLElement
        do {
            root = try XMLReader.read(body, maxElements: report ? Self.maxMultigetElements : Self.maxElements)
        } catch {
            throw ServerError.badRequest(error.message)
        }
        if body.count > maxBodySize, !root.is(DAV.caldav, "calendar-multiget") {
            throw ServerError(.contentTooLarge, "The request body is larger than the limit of \(maxBodySize) bytes.")
        }
        return root
    }

    /// The properties a body asks for, each once; nil for all of them
    /// (`allprop`, or no body). More than the limits allow is a 400: the
    /// answer of each resource would repeat them all.
    static func requested(_ root: XMLElement?) throws -> [DAV.Property]? {
        guard let prop = root?.child(DAV.dav, "prop") else { return nil }
        var seen = Set<DAV.Property>()
        var bytes = 0
        var asked: [DAV.Property] = []
        for child in prop.children {
            let property = DAV.Property(child.namespace, child.name)
            guard seen.insert(property).inserted else { continue }
            asked.append(property)
            bytes += property.namespace.utf8.count + property.name.utf8.count
            guard asked.count <= maxAskedProperties, bytes <= maxAskedPropertyBytes else {
                throw ServerError.badRequest(
                    "A PROPFIND or REPORT asks for at most \(maxAskedProperties) properties, their names and namespaces "
                        + "\(maxAskedPropertyBytes) bytes in all; ask for fewer, or for the rest in another request."
                )
            }
        }
        return asked
    }

    /// `Depth` 0 or 1; infinity is refused, as RFC 4918 (9.1) allows.
    static func depth(_ request: Request) throws -> Int? {
        switch request.headers[.depth]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "0": return 0
        case "1": return 1
        case "infinity": return nil
        default: throw ServerError.badRequest("Depth must be 0 or 1.")
        }
    }

    static func infiniteDepthRefused() -> Response {
        Multistatus.error(.forbidden, DAV.Property(DAV.dav, "propfind-finite-depth"), "Depth: infinity is not served here; ask with Depth 0 or 1.")
    }

    /// What `values` holds of what was asked: (found, asked for and missing).
    static func answer(_ values: [(DAV.Property, XMLValue)], asked: [DAV.Property]?) -> ([(DAV.Property, XMLValue)], [DAV.Property]) {
        guard let asked else { return (values.filter { $0.0 != calendarData }, []) }
        var found: [(DAV.Property, XMLValue)] = []
        var missing: [DAV.Property] = []
        for property in asked {
            if let value = values.first(where: { $0.0 == property }) { found.append(value) } else { missing.append(property) }
        }
        return (found, missing)
    }

    static var calendarData: DAV.Property { DAV.Property(DAV.caldav, "calendar-data") }

    // MARK: The resources' properties

    func principalValues(_ paths: CalDAVPaths) -> [(DAV.Property, XMLValue)] {
        let href = "<d:href>\(XMLText.escape(paths.principal))</d:href>"
        return [
            (DAV.Property(DAV.dav, "resourcetype"), .markup("<d:collection/><d:principal/>")),
            (DAV.Property(DAV.dav, "displayname"), .text(paths.user)),
            (DAV.Property(DAV.dav, "current-user-principal"), .markup(href)),
            (DAV.Property(DAV.dav, "principal-URL"), .markup(href)),
            (DAV.Property(DAV.caldav, "calendar-home-set"), .markup(href)),
        ]
    }

    func collectionValues(_ paths: CalDAVPaths, counter: Int) -> [(DAV.Property, XMLValue)] {
        let principal = "<d:href>\(XMLText.escape(paths.principal))</d:href>"
        let privileges = ["read", "write", "write-content", "write-properties", "bind", "unbind", "read-current-user-privilege-set"]
        let reports = ["c:calendar-query", "c:calendar-multiget", "d:sync-collection"]
        return [
            (DAV.Property(DAV.dav, "resourcetype"), .markup("<d:collection/><c:calendar/>")),
            (DAV.Property(DAV.dav, "displayname"), .text("Tasks")),
            (DAV.Property(DAV.caldav, "supported-calendar-component-set"), .markup(#"<c:comp name="VTODO"/>"#)),
            (DAV.Property(DAV.calendarServer, "getctag"), .text(String(counter))),
            (DAV.Property(DAV.dav, "sync-token"), .text(CalDAVPaths.syncToken(counter))),
            (DAV.Property(DAV.dav, "current-user-principal"), .markup(principal)),
            (DAV.Property(DAV.dav, "owner"), .markup(principal)),
            (DAV.Property(DAV.dav, "current-user-privilege-set"), .markup(privileges.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined())),
            (DAV.Property(DAV.dav, "supported-report-set"), .markup(reports.map { "<d:supported-report><d:report><\($0)/></d:report></d:supported-report>" }.joined())),
        ]
    }

    /// A resource's properties; its calendar data only when asked for.
    static func objectValues(_ object: CalendarObject, asked: [DAV.Property]?) -> [(DAV.Property, XMLValue)] {
        var values: [(DAV.Property, XMLValue)] = [
            (DAV.Property(DAV.dav, "getetag"), .text(ETag.string(for: object.todo.version))),
            (DAV.Property(DAV.dav, "getcontenttype"), .text(CalDAVPaths.calendarContentType)),
            (DAV.Property(DAV.dav, "resourcetype"), .markup("")),
        ]
        if asked?.contains(calendarData) == true {
            values.append((calendarData, .text(calendarText(object))))
        }
        return values
    }

    static func objectName(_ object: CalendarObject) -> String {
        object.name ?? object.todo.id + ".ics"
    }

    // MARK: PROPFIND

    @Sendable func propfindRoot(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let paths = CalDAVPaths(user: try await user(context))
        let asked = try Self.requested(try await xml(request))
        let values: [(DAV.Property, XMLValue)] = [(DAV.Property(DAV.dav, "resourcetype"), .markup("<d:collection/>"))] + principalValues(paths).filter {
            $0.0.name != "resourcetype" && $0.0.name != "displayname"
        }
        var multistatus = Multistatus()
        let (found, missing) = Self.answer(values, asked: asked)
        // Answered under the path asked (`/` or `/dav/`): both lead to the principal.
        multistatus.add(href: request.uri.path == "/" ? "/" : "/dav/", found: found, missing: missing)
        return multistatus.response()
    }

    @Sendable func propfindPrincipal(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, paths) = try await todos(request, context)
        guard let depth = try Self.depth(request) else { return Self.infiniteDepthRefused() }
        let asked = try Self.requested(try await xml(request))
        var multistatus = Multistatus()
        let (found, missing) = Self.answer(principalValues(paths), asked: asked)
        multistatus.add(href: paths.principal, found: found, missing: missing)
        if depth == 1 {
            let counter = try await todos.changeCounter()
            let (found, missing) = Self.answer(collectionValues(paths, counter: counter), asked: asked)
            multistatus.add(href: paths.collection, found: found, missing: missing)
        }
        return multistatus.response()
    }

    @Sendable func propfindCollection(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, paths) = try await todos(request, context)
        guard let depth = try Self.depth(request) else { return Self.infiniteDepthRefused() }
        let asked = try Self.requested(try await xml(request))
        let first = try await todos.calendarObjects(since: nil, after: nil, limit: depth == 1 ? Self.pageSize : 0)
        var multistatus = Multistatus()
        let (found, missing) = Self.answer(collectionValues(paths, counter: first.counter), asked: asked)
        multistatus.add(href: paths.collection, found: found, missing: missing)
        guard depth == 1 else { return multistatus.response() }
        return Self.streamed(multistatus, first: first, todos: todos, since: nil) { multistatus, object in
            let (found, missing) = Self.answer(Self.objectValues(object, asked: asked), asked: asked)
            multistatus.add(href: paths.href(Self.objectName(object)), found: found, missing: missing)
        }
    }

    @Sendable func propfindObject(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, paths) = try await todos(request, context)
        let name = Self.name(request)
        guard let object = try await Self.object(named: name, in: todos) else {
            throw ServerError(.notFound, "No task named \(name) in this list.")
        }
        let asked = try Self.requested(try await xml(request))
        var multistatus = Multistatus()
        let (found, missing) = Self.answer(Self.objectValues(object, asked: asked), asked: asked)
        multistatus.add(href: paths.href(name), found: found, missing: missing)
        return multistatus.response()
    }

    // MARK: REPORT

    @Sendable func report(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let (todos, paths) = try await todos(request, context)
        guard let root = try await xml(request, report: true) else { throw ServerError.badRequest("A REPORT needs a body naming the report.") }
        let asked = try Self.requested(root)
        let multistatus = Multistatus()
        let add: @Sendable (inout Multistatus, CalendarObject) -> Void = { multistatus, object in
            let (found, missing) = Self.answer(Self.objectValues(object, asked: asked), asked: asked)
            multistatus.add(href: paths.href(Self.objectName(object)), found: found, missing: missing)
        }
        switch (root.namespace, root.name) {
        case (DAV.caldav, "calendar-multiget"):
            // Each href answered once, however many: read and written a page
            // of hrefs at a time, so the answer is streamed and memory stays flat.
            var seen = Set<String>()
            let hrefs = root.children(DAV.dav, "href").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { seen.insert($0).inserted }
            let chunk = Self.multigetChunk
            let pages = stride(from: 0, to: hrefs.count, by: chunk).map { Array(hrefs[$0..<min($0 + chunk, hrefs.count)]) }
            return Response(status: .multiStatus, headers: Multistatus.headers, body: ResponseBody { writer in
                var part = multistatus
                for page in pages {
                    try await Self.multiget(page, from: todos, paths: paths, asked: asked, into: &part)
                    if part.pending >= Self.flushBytes { try await writer.write(ByteBuffer(bytes: part.take())) }
                }
                part.close()
                try await writer.write(ByteBuffer(bytes: part.take()))
                try await writer.finish(nil)
            })
        case (DAV.caldav, "calendar-query"):
            let filter: CalendarQueryFilter
            do {
                filter = try CalendarQueryFilter(root.child(DAV.caldav, "filter"), timeZone: CalDAVPaths.floating)
            } catch let problem {
                if case .collation = problem {
                    return Multistatus.error(.forbidden, DAV.Property(DAV.caldav, "supported-collation"), problem.message)
                }
                return Multistatus.error(.badRequest, DAV.Property(DAV.caldav, "valid-filter"), problem.message)
            }
            let first = try await todos.calendarObjects(since: nil, after: nil, limit: Self.pageSize)
            return Self.streamed(multistatus, first: first, todos: todos, since: nil) { multistatus, object in
                // Tried on the calendar object GET serves: what a client reads is what was filtered.
                if filter.keepsAll || Self.calendar(object).map(filter.matches) == true {
                    add(&multistatus, object)
                }
            }
        case (DAV.dav, "sync-collection"):
            let token = root.child(DAV.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let since: Int?
            if token.isEmpty {
                since = nil
            } else if let counter = CalDAVPaths.counter(fromSyncToken: token) {
                since = counter
            } else {
                return Multistatus.error(.forbidden, DAV.Property(DAV.dav, "valid-sync-token"), "The sync token is not one of this list's; sync again with an empty one.")
            }
            let first: CalendarPage
            do {
                first = try await todos.calendarObjects(since: since, after: nil, limit: Self.pageSize)
            } catch let error as ServerError where error.status == .gone || error.status.code == 409 || error.status.code == 400 {
                return Multistatus.error(.forbidden, DAV.Property(DAV.dav, "valid-sync-token"), "The sync token is too old or unknown; sync again with an empty one.")
            }
            // The token of the state the first page was read at: a change made
            // while later pages are read comes again next time, never is missed.
            let counter = first.counter
            return Self.streamed(multistatus, first: first, todos: todos, since: since, tail: { $0.addSyncToken(CalDAVPaths.syncToken(counter)) }) { multistatus, object in
                if object.deleted {
                    // A deleted todo the client may hold: the resource went.
                    multistatus.addMissing(href: paths.href(Self.objectName(object)))
                } else {
                    add(&multistatus, object)
                }
            }
        default:
            return Multistatus.error(.forbidden, DAV.Property(DAV.dav, "supported-report"), "The report \(root.name) is not served here: ask for calendar-query, calendar-multiget or sync-collection.")
        }
    }
}
