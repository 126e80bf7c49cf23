import Foundation
import Synchronization
import TodoCore
import TodoICalendar

/// One task list on a CalDAV server (RFC 4791) as a sync's server side.
///
/// - The whole list is one `calendar-query` REPORT (every VTODO with its
///   ETag and text). Its cursor is the list's `sync-token` (RFC 6578), else
///   its CTag: what the next sync asks about first.
/// - Changes are a `sync-collection` REPORT from that token: the names of
///   changed and removed items, the changed ones then read in
///   `calendar-multiget` REPORTs of `multigetSize`. With only a CTag, an
///   unchanged CTag is a sync with nothing to read; a changed one, a full list.
/// - An item's id is its resource name (`7d0f….ics`); its version is its
///   ETag's digest (`CalDAVItem.version(ofETag:)`).
/// - A write sends the server's own text with only the changed properties
///   rewritten, with `If-Match` on the ETag it was read at (412: someone
///   changed it since, so the sync fetches and merges again). A create is a
///   PUT of `UUID.ics` with `If-None-Match: *`: sent twice, it is one task.
final class CalDAVCollection: RemoteTodos {
    let configuration: SyncConfiguration
    let transport: any HTTPTransport
    /// The list's URL, ending in `/`.
    let listURL: String
    let timeZone: TimeZone
    let now: @Sendable () -> Date
    /// The versions the bases record for these items, by id: a changed
    /// item at that version (our own write, named back) is not read again.
    let recorded: @Sendable ([String]) async throws -> [String: Int]
    /// The text and ETag of each item read during this sync, by id: what an
    /// update rewrites, when the ETag is still the one the sync planned with.
    private let read = Mutex<[String: Resource]>([:])
    /// The UIDs of todos the server knows by UIDs of their own (`useUIDs`).
    private let uidNames = UIDNames()

    struct Resource: Sendable {
        var etag: String
        var calendar: ICalendarComponent
    }

    init(
        configuration: SyncConfiguration, transport: any HTTPTransport, timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        recorded: @escaping @Sendable ([String]) async throws -> [String: Int] = { _ in [:] }
    ) {
        self.recorded = recorded
        self.configuration = configuration
        self.transport = transport
        let server = configuration.server
        let url = SyncConfiguration.isCalDAV(server) ? String(server.dropFirst(SyncConfiguration.calDAVPrefix.count)) : server
        listURL = url.hasSuffix("/") ? url : url + "/"
        self.timeZone = timeZone
        self.now = now
    }

    /// How many items one `calendar-multiget` asks for.
    static let multigetSize = 200

    // MARK: - Reading

    func fetchAll(unlessDigest stored: String?) async throws -> RemoteCollection.Listing {
        let state = try await listState()
        let response = try await send("REPORT", listURL, depth: "1", body: Self.calendarQuery, allow: [207])
        var listing = RemoteCollection.Listing()
        listing.cursor = state.cursor
        let found = try read(response, request: "REPORT calendar-query", remember: false)
        listing.items = found.items
        listing.skipped = found.skipped
        return listing
    }

    func fetchChanges(since cursor: String) async throws -> RemoteCollection.FeedPage {
        if cursor.hasPrefix(Self.ctagCursor) {
            // Only a CTag: unchanged, nothing to read; changed, the whole list.
            let state = try await listState(ctag: true)
            guard state.cursor == cursor else { throw SyncError.cursorExpired }
            return RemoteCollection.FeedPage(items: [], deleted: [], skipped: [], cursor: cursor, more: false)
        }
        guard cursor.hasPrefix(Self.tokenCursor) else { throw SyncError.cursorExpired }
        let token = String(cursor.dropFirst(Self.tokenCursor.count))
        let response = try await send(
            "REPORT", listURL, depth: "0", body: Self.syncCollection(token: token), allow: [207, 400, 403, 409, 410, 412]
        )
        // RFC 6578 3.2: a token the server no longer knows (valid-sync-token,
        // said with 403 or 409), or a report it refuses: the whole list, which
        // says the same with the same safety.
        if response.status != 207 { throw SyncError.cursorExpired }
        let changes = try MultistatusAnswer(response.body, base: listURL, request: "REPORT sync-collection")
        guard let next = changes.syncToken else {
            throw SyncError.malformed(request: "REPORT sync-collection", reason: "no sync-token in the answer")
        }
        var page = RemoteCollection.FeedPage(items: [], deleted: [], skipped: [], cursor: Self.tokenCursor + next, more: changes.truncated)
        var named: [(name: String, etag: String?)] = []
        for member in changes.members where !member.isCollection {
            if member.status == 404 {
                page.deleted.append(member.name)
            } else if member.etag != nil || member.status == 200 {
                named.append((member.name, member.etag))
            }
        }
        let versions = named.isEmpty ? [:] : try await recorded(named.map(\.name))
        var changed: [String] = []
        for (name, etag) in named {
            if let etag, let version = versions[name], version == CalDAVItem.version(ofETag: etag) {
                page.unchanged.append(name)
            } else {
                changed.append(name)
            }
        }
        for start in stride(from: 0, to: changed.count, by: Self.multigetSize) {
            let names = Array(changed[start..<min(start + Self.multigetSize, changed.count)])
            let body = Self.multiget(names.map { Self.path(of: listURL) + $0 })
            let answer = try await send("REPORT", listURL, depth: "1", body: body, allow: [207])
            let found = try read(answer, request: "REPORT calendar-multiget", remember: true)
            page.items += found.items
            // Not there now: removed since the first report, which the next
            // one says; left as they are until then.
            page.skipped += found.skipped + found.missing
        }
        return page
    }

    func fetchOne(id: String) async throws -> RemoteCollection.WriteResult {
        guard let resource = try await get(id) else { return .missing }
        do {
            return .done(try CalDAVItem.remote(name: id, etag: resource.etag, calendar: resource.calendar, timeZone: timeZone))
        } catch .event, .noVTodo {
            // No task there any more (an event now): gone, as far as tasks go.
            return .missing
        } catch {
            throw SyncError.malformed(request: "GET \(id)", reason: error.message)
        }
    }

    func fetchCreated(_ todoId: UUID) async throws -> RemoteCollection.WriteResult {
        try await fetchOne(id: Self.name(for: todoId))
    }

    /// A created task is named by its todo's UUID: fetched by that name.
    func find(marked todoId: UUID) async throws -> RemoteTodo? {
        guard case let .done(item?) = try await fetchCreated(todoId) else { return nil }
        return item
    }

    /// A CalDAV list takes one write a request.
    func batch(_ operations: [RemoteCollection.BatchWrite]) async throws -> [RemoteCollection.WriteResult]? {
        nil
    }

    func useUIDs(_ uids: [UUID: String]) {
        uidNames.set(uids)
    }

    // MARK: - Writing

    func create(
        _ todo: TodoItem, fields: SyncFields, editedAt: FieldTimes, server: RemoteCapabilities
    ) async throws -> RemoteCollection.WriteResult {
        let name = Self.name(for: todo.id)
        let calendar = CalDAVItem.new(
            todo, fields: fields, editedAt: editedAt, timeZone: timeZone, now: now(), linkNames: uidNames.current
        )
        let response = try await send(
            "PUT", listURL + name, headers: ["If-None-Match": "*"], body: calendar.bytes(), allow: [412]
        )
        if response.status == 412 { return .exists }
        return .done(try written(name, calendar, response))
    }

    /// `keptTags` is not needed: the categories no tag can be are read from
    /// the object itself, just fetched (`CalDAVItem.rewritten`).
    func update(
        id: String, version: Int?, fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes, local: TodoItem?,
        dates: Bool, keptTags: [String]
    ) async throws -> RemoteCollection.WriteResult {
        guard let resource = try await current(id, version: version) else { return .missing }
        guard version == nil || CalDAVItem.version(ofETag: resource.etag) == version else { return .stale }
        let calendar: ICalendarComponent
        do {
            calendar = try CalDAVItem.rewritten(
                resource.calendar, fields: fields, changed: changed, editedAt: editedAt, local: local, dates: dates,
                timeZone: timeZone, now: now(), linkNames: uidNames.current
            )
        } catch {
            throw SyncError.malformed(request: "GET \(id)", reason: error.message)
        }
        let response = try await send(
            "PUT", listURL + id, headers: Self.ifMatch(resource.etag), body: calendar.bytes(), allow: [404, 410, 412]
        )
        switch response.status {
        case 404, 410: return .missing
        case 412: return .stale
        default: return .done(try written(id, calendar, response))
        }
    }

    func delete(id: String, version: Int?) async throws -> RemoteCollection.WriteResult {
        guard let resource = try await current(id, version: version) else { return .missing }
        guard version == nil || CalDAVItem.version(ofETag: resource.etag) == version else { return .stale }
        let response = try await send("DELETE", listURL + id, headers: Self.ifMatch(resource.etag), allow: [404, 410, 412])
        switch response.status {
        case 404, 410: return .missing
        case 412: return .stale
        default:
            read.withLock { $0[id] = nil }
            return .done(nil)
        }
    }

    /// Keeps what a report read, for the updates of this sync.
    func rememberRead(_ resources: [(String, Resource)]) {
        guard !resources.isEmpty else { return }
        read.withLock { read in
            for (name, resource) in resources { read[name] = resource }
        }
    }

    /// The item as written: its new ETag if the server sent one (else its
    /// version is unknown, and the next sync reads it again).
    private func written(_ name: String, _ calendar: ICalendarComponent, _ response: HTTPResponseData) throws -> RemoteTodo {
        let etag = response.headers["etag"]
        if let etag { read.withLock { $0[name] = Resource(etag: etag, calendar: calendar) } }
        do {
            return try CalDAVItem.remote(name: name, etag: etag, calendar: calendar, timeZone: timeZone)
        } catch {
            throw SyncError.malformed(request: "PUT \(name)", reason: error.message)
        }
    }

    /// The item's text and ETag: as this sync read it if that is still the
    /// version planned with, else read again. Nil: it is gone.
    private func current(_ id: String, version: Int?) async throws -> Resource? {
        if let known = read.withLock({ $0[id] }), version == nil || CalDAVItem.version(ofETag: known.etag) == version {
            return known
        }
        return try await get(id)
    }

    /// GET of one item; nil for 404 or 410.
    private func get(_ id: String) async throws -> Resource? {
        let response = try await send("GET", listURL + id, allow: [404, 410])
        guard response.status != 404, response.status != 410 else { return nil }
        guard let etag = response.headers["etag"] else {
            throw SyncError.malformed(request: "GET \(id)", reason: "no ETag: a CalDAV server sends one with every task")
        }
        let calendar: ICalendarComponent
        do {
            calendar = try ICalendarComponent.read(response.body)
        } catch {
            throw SyncError.malformed(request: "GET \(id)", reason: "not iCalendar (\(error))")
        }
        let resource = Resource(etag: etag, calendar: calendar)
        read.withLock { $0[id] = resource }
        return resource
    }
}
