import Foundation
import TestSupport
import TodoICalendar
import TodoSync
import TodoXML

/// One CalDAV task list in memory, behind the transport protocol, as sync
/// uses one: PROPFIND of the list, `calendar-query`, `sync-collection`
/// (or only a CTag), `calendar-multiget`, GET, PUT with `If-Match` or
/// `If-None-Match: *`, DELETE with `If-Match`; an ETag per version. Faults
/// are injected at random: timeouts before a request is applied, 500s,
/// connections cut after it is applied, sync-collection answers cut short
/// (507), and restarts that lose the writes since the last `persist()`
/// (and with them the sync tokens that named them).
actor FakeCalDAVServer: HTTPTransport {
    /// What says where the list stands.
    enum Changes: Sendable { case syncToken, ctagOnly }

    static let listPath = "/dav/alice/tasks/"
    static let server = "caldav+http://fake" + listPath

    struct Stored: Sendable {
        var etag: String
        var text: [UInt8]
    }

    struct State: Sendable {
        var items: [String: Stored] = [:]
        /// The revision of each name's last change (deletions included).
        var changedAt: [String: Int] = [:]
        var revision = 0
        var etags = 0
        /// Sync tokens this state knows, by the revision they name.
        var tokens: [String: Int] = [:]
        /// Each name's creations and deletions, by revision.
        var existence: [String: [(revision: Int, exists: Bool)]] = [:]

        /// Whether `name` existed at `revision`.
        func existed(_ name: String, at revision: Int) -> Bool {
            existence[name]?.last { $0.revision <= revision }?.exists ?? false
        }
    }

    let changes: Changes
    private(set) var state = State()
    private var persisted: State?
    private var epoch = 0
    private var random: SeededRandom
    var faultRate = 0.0
    /// Chance that a sync-collection answer stops halfway (507), as Google's and iCloud's do.
    var truncateRate = 0.0
    private(set) var log: [String] = []
    /// A sync-collection leaves out what was created and deleted since the
    /// token asked, as RFC 6578 allows (section 3.5.1).
    var omitsShortLived = false
    /// A write that arrives while another is being stored is answered 423
    /// Locked, as a server that keeps its list in a git repository answers.
    var locksConcurrentWrites = false
    /// Every write is answered 423 Locked.
    var lockedForGood = false
    private var writing = 0
    private(set) var lockedAnswers = 0
    /// Writes that arrived since the first 423.
    private var writesSinceALock = 0
    /// The most writes stored at once among those that arrived after the
    /// first 423 and the sixteen after it (those sent before it was seen
    /// may still be on their way).
    private(set) var mostWritesAtOnceAfterALock = 0

    init(changes: Changes = .syncToken, seed: UInt64 = 1) {
        self.changes = changes
        random = SeededRandom(seed: seed)
        state.tokens["http://fake/sync/0-0"] = 0
    }

    func setFaultRate(_ rate: Double) { faultRate = rate }
    func setTruncateRate(_ rate: Double) { truncateRate = rate }
    func mark(_ text: String) { log.append("== " + text) }
    func setOmitsShortLived(_ on: Bool) { omitsShortLived = on }
    func setLocksConcurrentWrites(_ on: Bool) { locksConcurrentWrites = on }
    func setLockedForGood(_ on: Bool) { lockedForGood = on }

    /// The list's current sync token.
    var token: String { "http://fake/sync/\(epoch)-\(state.revision)" }

    func persist() { persisted = state }

    /// A restart: what came since the last `persist()` is gone, and so are
    /// the tokens that named it; new tokens never repeat an old one.
    func restart() {
        guard let persisted else { return }
        state = persisted
        epoch += 1
        state.tokens[token] = state.revision
    }

    private var restarted = false

    /// `restart`, the first time only: a restore from a copy, once.
    func restartOnce() {
        guard !restarted else { return persist() }
        restarted = true
        restart()
    }

    /// Stores an object as another app would (PUT), by name.
    func put(_ name: String, _ text: String) {
        write(name, Array(text.utf8))
    }

    /// An object's text, by name.
    func text(of name: String) -> String? {
        state.items[name].map { String(decoding: $0.text, as: UTF8.self) }
    }

    var names: [String] { state.items.keys.sorted() }

    private func write(_ name: String, _ text: [UInt8]?) {
        state.revision += 1
        if (state.items[name] != nil) != (text != nil) { state.existence[name, default: []].append((state.revision, text != nil)) }
        if let text {
            state.etags += 1
            state.items[name] = Stored(etag: "\"e\(epoch)-\(state.etags)\"", text: text)
        } else {
            state.items[name] = nil
        }
        state.changedAt[name] = state.revision
        state.tokens[token] = state.revision
    }

    // MARK: - Requests

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let path = String(request.url.dropFirst("http://fake".count))
        log.append("\(request.method) \(path)")
        let fault = faultRate > 0 && random.chance(faultRate) ? random.next() % 3 : nil
        switch fault {
        case 0?: throw TransportError(.timeout, "fake, before applying")
        case 1?: return HTTPResponseData(status: 500, body: Array("Internal Server Error".utf8))
        default: break
        }
        if request.method == "PUT" || request.method == "DELETE", lockedForGood || locksConcurrentWrites {
            writing += 1
            if lockedAnswers > 0 { writesSinceALock += 1 }
            if writesSinceALock > 16 { mostWritesAtOnceAfterALock = max(mostWritesAtOnceAfterALock, writing) }
            // Another write may arrive while this one is stored.
            for _ in 0..<3 { await Task.yield() }
            let locked = lockedForGood || writing > 1
            writing -= 1
            if locked {
                lockedAnswers += 1
                return HTTPResponseData(status: 423, body: Array("Locked".utf8))
            }
        }
        let response = respond(request, path: path)
        if fault == 2 { throw TransportError(.connectionClosed, "fake, after applying") }
        return response
    }

    private func respond(_ request: HTTPRequestData, path: String) -> HTTPResponseData {
        let body = request.body ?? []
        if path == Self.listPath {
            switch request.method {
            case "PROPFIND": return propfind()
            case "REPORT": return report(body)
            default: return HTTPResponseData(status: 405)
            }
        }
        guard path.hasPrefix(Self.listPath) else { return HTTPResponseData(status: 404) }
        let encoded = String(path.dropFirst(Self.listPath.count))
        let name = encoded.removingPercentEncoding ?? encoded
        let current = state.items[name]
        let ifMatch = request.headers["If-Match"]
        switch request.method {
        case "GET":
            guard let current else { return HTTPResponseData(status: 404) }
            return HTTPResponseData(status: 200, headers: ["ETag": current.etag, "Content-Type": "text/calendar"], body: current.text)
        case "PUT":
            if request.headers["If-None-Match"] == "*", current != nil { return HTTPResponseData(status: 412) }
            if let ifMatch, ifMatch != current?.etag { return HTTPResponseData(status: 412) }
            // The object must be one task with a UID, as CalDAV servers check.
            guard let calendar = try? ICalendarComponent.read(body), (try? VTodo.fields(of: calendar, timeZone: .gmt)) != nil else {
                return HTTPResponseData(status: 400)
            }
            write(name, body)
            return HTTPResponseData(status: current == nil ? 201 : 204, headers: ["ETag": state.items[name]!.etag])
        case "DELETE":
            guard let current else { return HTTPResponseData(status: 404) }
            if let ifMatch, ifMatch != current.etag { return HTTPResponseData(status: 412) }
            write(name, nil)
            return HTTPResponseData(status: 204)
        default:
            return HTTPResponseData(status: 405)
        }
    }

    private func propfind() -> HTTPResponseData {
        var props = "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
            + #"<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>"#
            + "<cs:getctag>\(epoch)-\(state.revision)</cs:getctag>"
        if changes == .syncToken { props += "<d:sync-token>\(token)</d:sync-token>" }
        return multistatus(["<d:response><d:href>\(Self.listPath)</d:href>\(Self.found(props))</d:response>"])
    }

    private func report(_ body: [UInt8]) -> HTTPResponseData {
        guard let root = try? XMLReader.read(body) else { return HTTPResponseData(status: 400) }
        let caldav = "urn:ietf:params:xml:ns:caldav"
        if root.is(caldav, "calendar-query") {
            return multistatus(state.items.keys.sorted().map(member))
        }
        if root.is(caldav, "calendar-multiget") {
            return multistatus(root.children("DAV:", "href").map { href in
                let name = href.text.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
                return member(name)
            })
        }
        guard root.is("DAV:", "sync-collection"), changes == .syncToken else { return HTTPResponseData(status: 403) }
        let asked = root.child("DAV:", "sync-token")?.text ?? ""
        guard let since = state.tokens[asked] else {
            return HTTPResponseData(status: 403, body: Array(#"<d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>"#.utf8))
        }
        var changed = state.changedAt.filter { $0.value > since }.sorted { $0.value < $1.value }
        if omitsShortLived {
            // Gone now, and not there at the token: never seen by whoever holds it.
            changed.removeAll { name, _ in state.items[name] == nil && !state.existed(name, at: since) }
        }
        var responses: [String] = []
        var upTo = state.revision
        if changed.count > 1, truncateRate > 0, random.chance(truncateRate) {
            // Cut short: the token names the revision of the last change given.
            changed = Array(changed.prefix(changed.count / 2))
            upTo = changed.last!.value
            let cut = "http://fake/sync/\(epoch)-\(upTo)-cut"
            state.tokens[cut] = upTo
            responses.append("<d:response><d:href>\(Self.listPath)</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>")
            let lines = changed.map { name, _ in syncMember(name) }
            return multistatus(lines + responses, token: cut)
        }
        responses = changed.map { name, _ in syncMember(name) }
        return multistatus(responses, token: token)
    }

    private func syncMember(_ name: String) -> String {
        let href = Self.listPath + Self.encoded(name)
        if let item = state.items[name] {
            return "<d:response><d:href>\(href)</d:href>\(Self.found("<d:getetag>\(Self.escaped(item.etag))</d:getetag>"))</d:response>"
        }
        return "<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
    }

    private func member(_ name: String) -> String {
        let href = Self.listPath + Self.encoded(name)
        guard let item = state.items[name] else {
            return "<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
        }
        let data = Self.escaped(String(decoding: item.text, as: UTF8.self))
        return "<d:response><d:href>\(href)</d:href>"
            + Self.found("<d:getetag>\(Self.escaped(item.etag))</d:getetag><c:calendar-data>\(data)</c:calendar-data>") + "</d:response>"
    }

    private func multistatus(_ responses: [String], token: String? = nil) -> HTTPResponseData {
        let text = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">"#
            + responses.joined() + (token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "") + "</d:multistatus>"
        return HTTPResponseData(status: 207, headers: ["Content-Type": "application/xml"], body: Array(text.utf8))
    }

    private static func found(_ props: String) -> String {
        "<d:propstat><d:prop>\(props)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
    }

    static func encoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\r", with: "&#13;")
    }
}
