import Foundation
import TodoCore
import TodoICalendar
import TodoXML

// MARK: - Requests and their answers

extension CalDAVCollection {
    /// Cursors a CalDAV list's sync records: `token:` and the list's
    /// sync-token, else `ctag:` and its CTag.
    static let tokenCursor = "token:"
    static let ctagCursor = "ctag:"

    /// What the list says of itself: that it is a task list, and where it stands.
    struct ListState {
        var cursor: String?
    }

    /// A PROPFIND of the list: refuses what is not a task list, and gives its
    /// sync-token, else its CTag. They are asked one after the other (the
    /// CTag only of a list without a token, or when the cursor is one):
    /// Radicale works out each of them from every task, 0.4 s at 10,000.
    func listState(ctag: Bool = false) async throws -> ListState {
        let response = try await send("PROPFIND", listURL, depth: "0", body: Self.listProperties(ctag: ctag), allow: [207, 404])
        if response.status == 404 {
            throw SyncError.notTaskList(url: listURL, reason: "nothing is there (404)")
        }
        let answer = try MultistatusAnswer(response.body, base: listURL, request: "PROPFIND")
        guard let list = answer.members.first(where: \.isCollection) ?? answer.members.first else {
            throw SyncError.notCalDAV(url: listURL, reason: "its answer names no resource")
        }
        guard list.isCalendar else {
            throw SyncError.notTaskList(url: listURL, reason: "it is not a calendar")
        }
        if let components = list.components, !components.contains("VTODO") {
            throw SyncError.notTaskList(url: listURL, reason: "it holds \(components.sorted().joined(separator: ", ")) only, no tasks")
        }
        if let token = list.syncToken, !ctag { return ListState(cursor: Self.tokenCursor + token) }
        if let tag = list.ctag { return ListState(cursor: Self.ctagCursor + tag) }
        return ctag ? ListState(cursor: nil) : try await listState(ctag: true)
    }

    /// The items of a multistatus that holds calendar data: tasks read,
    /// names of objects that could not be read (left alone), names the
    /// server says are not there. With `remember`, their text is kept for
    /// this sync's updates (changed items, a few: not a whole list).
    func read(
        _ response: HTTPResponseData, request: String, remember: Bool
    ) throws -> (items: [RemoteTodo], skipped: [String], missing: [String]) {
        let answer = try MultistatusAnswer(response.body, base: listURL, request: request)
        var items: [RemoteTodo] = []
        var skipped: [String] = []
        var missing: [String] = []
        var resources: [(String, Resource)] = []
        items.reserveCapacity(answer.members.count)
        for member in answer.members where !member.isCollection {
            if member.status == 404 {
                missing.append(member.name)
                continue
            }
            guard let text = member.calendarData, let etag = member.etag else {
                skipped.append(member.name)
                continue
            }
            do {
                let calendar = try ICalendarComponent.read(Array(text.utf8))
                let item = try CalDAVItem.remote(name: member.name, etag: etag, calendar: calendar, timeZone: timeZone)
                items.append(item)
                if remember { resources.append((member.name, Resource(etag: etag, calendar: calendar))) }
            } catch VTodoError.event {
                // An event in a list that holds both: not a task, not ours.
            } catch {
                skipped.append(member.name)
            }
        }
        rememberRead(resources)
        return (items, skipped, missing)
    }

    /// Sends one request with the account's login; a status outside 2xx (and
    /// `allow`) becomes a `SyncError` that says what to do.
    func send(
        _ method: String, _ url: String, depth: String? = nil, headers extra: [String: String] = [:], body: [UInt8]? = nil,
        allow: Set<Int> = []
    ) async throws -> HTTPResponseData {
        var headers = extra
        if let login = configuration.login { headers["Authorization"] = login.header }
        if let depth { headers["Depth"] = depth }
        if body != nil {
            headers["Content-Type"] = method == "PUT" ? "text/calendar; charset=utf-8" : "application/xml; charset=utf-8"
        }
        let name = "\(method) \(Self.path(of: url))"
        let response: HTTPResponseData
        do {
            response = try await transport.send(HTTPRequestData(method: method, url: url, headers: headers, body: body))
        } catch let error as TransportError {
            throw SyncError.unreachable(server: configuration.server, request: name, kind: error.kind, queued: nil)
        }
        // PROPFIND and REPORT answer a multistatus (207): a 200 is a web page.
        let multistatus = method == "PROPFIND" || method == "REPORT"
        if allow.contains(response.status) || !multistatus && (200..<300).contains(response.status) {
            return response
        }
        switch response.status {
        case 401:
            throw SyncError.wrongLogin(url: listURL, user: configuration.login?.user ?? "(none)")
        case 200..<300 where method == "PROPFIND" || method == "REPORT":
            throw SyncError.notCalDAV(url: listURL, reason: "it answered \(method) with \(response.status), not a WebDAV multistatus")
        case 405, 501:
            throw SyncError.notCalDAV(url: listURL, reason: "it does not take \(method) (\(response.status))")
        default:
            throw SyncError.httpStatus(request: name, status: response.status, body: RemoteCollection.excerpt(response))
        }
    }

    // MARK: - Names

    /// The resource name this client gives a todo it creates.
    static func name(for todoId: UUID) -> String {
        todoId.lowercasedString + ".ics"
    }

    /// A resource's name as sync keeps it: the last segment of its path,
    /// percent-encoded one way whatever way the server wrote it (`%40` and
    /// `@` alike), or exactly as written if it does not decode (a name in
    /// Latin-1). It goes into URLs and hrefs as it is.
    static func canonical(_ segment: String) -> String {
        // Most names (`UUID.ics`) need nothing: told byte by byte, not by Foundation.
        if segment.utf8.allSatisfy(isPlainPathByte) { return segment }
        guard let decoded = segment.removingPercentEncoding else { return segment }
        return decoded.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? segment
    }

    /// A byte a path segment holds as it is, encoded or not: letters,
    /// digits and `-._~@`.
    static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"): true
        default: false
        }
    }

    /// The path of an href: as it is when it is one (`/dav/…`), else the
    /// part of a whole URL after its host.
    static func hrefPath(_ href: String) -> String {
        if href.hasPrefix("/") { return href.split(separator: "?", maxSplits: 1).first.map(String.init) ?? href }
        return URLComponents(string: href)?.percentEncodedPath ?? href
    }

    /// An If-Match header for `etag`: none for a weak ETag (`W/"…"`), which
    /// never matches under If-Match's strong comparison (RFC 9110 13.1.1):
    /// then the write relies on the version read just before it.
    static func ifMatch(_ etag: String) -> [String: String] {
        etag.hasPrefix("W/") ? [:] : ["If-Match": etag]
    }

    /// The URL's path as a request body names it, percent-encoded as it came.
    static func path(of url: String) -> String {
        URLComponents(string: url)?.percentEncodedPath ?? url
    }

    // MARK: - Bodies

    static func listProperties(ctag: Bool) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
              <d:prop><d:resourcetype/><c:supported-calendar-component-set/>\(ctag ? "<cs:getctag/>" : "<d:sync-token/>")</d:prop>
            </d:propfind>
            """.utf8)
    }

    static let calendarQuery = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:prop><d:getetag/><c:calendar-data/></d:prop>
          <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>
        </c:calendar-query>
        """.utf8)

    static func syncCollection(token: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:">
              <d:sync-token>\(XMLText.escape(token))</d:sync-token><d:sync-level>1</d:sync-level>
              <d:prop><d:getetag/></d:prop>
            </d:sync-collection>
            """.utf8)
    }

    static func multiget(_ paths: [String]) -> [UInt8] {
        let hrefs = paths.map { "<d:href>\(XMLText.escape($0))</d:href>" }.joined()
        return Array("""
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:prop><d:getetag/><c:calendar-data/></d:prop>\(hrefs)
            </c:calendar-multiget>
            """.utf8)
    }
}

/// A WebDAV multistatus as sync reads it (RFC 4918 13, RFC 6578 3.6), read
/// by `XMLReader`: no DTD, no entity but the predefined ones.
struct MultistatusAnswer {
    struct Member {
        /// The resource's name: the last segment of its path (`CalDAVCollection.canonical`).
        var name: String
        var isCollection: Bool
        /// The response's own status (a removed member: 404), else that of
        /// its properties found.
        var status: Int?
        var etag: String?
        var calendarData: String?
        var isCalendar = false
        var components: Set<String>?
        var syncToken: String?
        var ctag: String?
    }

    var members: [Member] = []
    var syncToken: String?
    /// A sync-collection answer cut short (507 on the list): ask again from its token.
    var truncated = false

    static let dav = "DAV:"
    static let calDAV = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    init(_ body: [UInt8], base: String, request: String) throws {
        let root: XMLElement
        do {
            // Ten elements or so a task: a list of 400,000 tasks at most.
            root = try XMLReader.read(body, maxElements: 4_000_000)
        } catch {
            throw SyncError.notCalDAV(url: base, reason: "its answer to \(request) is not XML a client can read (\(error.message))")
        }
        guard root.is(Self.dav, "multistatus") else {
            throw SyncError.notCalDAV(url: base, reason: "its answer to \(request) is not a WebDAV multistatus")
        }
        syncToken = root.child(Self.dav, "sync-token").map { $0.text.trimmedASCIIWhitespace }
        let basePath = CalDAVCollection.path(of: base)
        for response in root.children(Self.dav, "response") {
            guard let href = response.child(Self.dav, "href")?.text.trimmedASCIIWhitespace, !href.isEmpty
            else { continue }
            let path = CalDAVCollection.hrefPath(href)
            let isCollection = path.hasSuffix("/")
            let own = response.child(Self.dav, "status").flatMap { Self.code($0.text) }
            if own == 507, isCollection || path == basePath {
                truncated = true
                continue
            }
            let segment = path.split(separator: "/").last.map(String.init) ?? path
            var member = Member(name: CalDAVCollection.canonical(segment), isCollection: isCollection, status: own)
            for propstat in response.children(Self.dav, "propstat") {
                guard Self.code(propstat.child(Self.dav, "status")?.text ?? "") == 200, let prop = propstat.child(Self.dav, "prop") else {
                    continue
                }
                member.status = member.status ?? 200
                if let etag = prop.child(Self.dav, "getetag")?.text.trimmedASCIIWhitespace, !etag.isEmpty {
                    member.etag = etag
                }
                if let data = prop.child(Self.calDAV, "calendar-data")?.text, !data.isEmpty { member.calendarData = data }
                if prop.child(Self.dav, "resourcetype")?.child(Self.calDAV, "calendar") != nil { member.isCalendar = true }
                if let set = prop.child(Self.calDAV, "supported-calendar-component-set") {
                    member.components = Set(set.children(Self.calDAV, "comp").compactMap { $0.attribute("name")?.uppercased() })
                }
                if let token = prop.child(Self.dav, "sync-token")?.text.trimmedASCIIWhitespace, !token.isEmpty {
                    member.syncToken = token
                }
                if let tag = prop.child(Self.calendarServer, "getctag")?.text.trimmedASCIIWhitespace, !tag.isEmpty {
                    member.ctag = tag
                }
            }
            members.append(member)
        }
    }

    /// The code of a status line (`HTTP/1.1 404 Not Found`).
    static func code(_ line: String) -> Int? {
        line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
