import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer
import TodoXML

/// todo-server's CalDAV routes through the router, on both backends:
/// discovery, credentials, resources with their ETags, the three reports,
/// and what a hostile or mistaken client sends.
struct CalDAVRoutesTests {
    static let propfind = HTTPRequest.Method("PROPFIND")!
    static let report = HTTPRequest.Method("REPORT")!
    static let tasks = "/dav/alice/tasks/"
    static let depth = HTTPFields.Element.Name("Depth")!

    static func basic(_ user: String, _ password: String) -> HTTPFields {
        [.authorization: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
    }

    static func calendar(uid: String, summary: String, extra: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z",
          "SUMMARY:\(summary)"] + extra + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// A client signed in as alice.
    struct Alice {
        let client: any TestClientProtocol
        let headers: HTTPFields

        @discardableResult
        func send(_ method: HTTPRequest.Method, _ path: String, _ body: String? = nil, _ extra: HTTPFields = [:]) async throws -> TestResponse {
            var headers = headers
            for field in extra { headers.append(field) }
            return try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        }

        /// The multistatus of a response, read back.
        func multistatus(_ response: TestResponse) throws -> XMLElement {
            #expect(response.status.code == 207, "\(response.status) \(String(buffer: response.body))")
            return try XMLReader.read(Array(String(buffer: response.body).utf8))
        }
    }

    func withAlice(_ backend: Backend, _ test: @Sendable (Alice, [String]) async throws -> Void) async throws {
        try await withAccountsServer(["alice", "bob"], backend: backend) { client, tokens, _ in
            try await test(Alice(client: client, headers: Self.basic("alice", tokens[0])), tokens)
        }
    }

    static func hrefs(_ multistatus: XMLElement) -> [String] {
        multistatus.children(DAVNames.dav, "response").compactMap { $0.child(DAVNames.dav, "href")?.text }
    }

    // MARK: - Discovery and credentials

    @Test(arguments: Backend.allCases)
    func aClientFindsTheTaskListFromTheServersAddress(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            let wellKnown = try await alice.send(Self.propfind, "/.well-known/caldav")
            #expect(wellKnown.status == .movedPermanently && wellKnown.headers[.location] == "/dav/")
            let root = try alice.multistatus(try await alice.send(Self.propfind, "/dav/", #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>"#, [Self.depth: "0"]))
            #expect(String(describing: root).contains("/dav/alice/"))
            let home = try alice.multistatus(try await alice.send(Self.propfind, "/dav/alice/", nil, [Self.depth: "1"]))
            #expect(Self.hrefs(home) == ["/dav/alice/", Self.tasks])
            let list = try #require(home.children[1].child(DAVNames.dav, "propstat")?.child(DAVNames.dav, "prop"))
            #expect(list.child(DAVNames.caldav, "supported-calendar-component-set")?.children.first?.attribute("name") == "VTODO")
            #expect(list.child(DAVNames.dav, "resourcetype")?.child(DAVNames.caldav, "calendar") != nil)
            #expect(list.child(DAVNames.dav, "sync-token")?.text == "urn:x-todo-server:sync:0")
            let infinite = try await alice.send(Self.propfind, Self.tasks, nil, [Self.depth: "infinity"])
            #expect(infinite.status == .forbidden && String(buffer: infinite.body).contains("propfind-finite-depth"))
        }
    }

    @Test(arguments: Backend.allCases)
    func credentialsAreTheAccountsNameAndAToken(_ backend: Backend) async throws {
        try await withAccountsServer(["alice", "bob"], backend: backend) { client, tokens, _ in
            for headers in [HTTPFields(), Self.basic("alice", "todo_wrong"), Self.basic("bob", tokens[0]), Self.basic("alice", "")] {
                let response = try await client.execute(uri: Self.tasks, method: Self.propfind, headers: headers, body: nil)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            }
            // Bob's own credentials do not reach alice's list, on any method.
            let bob = Self.basic("bob", tokens[1])
            for method in [Self.propfind, Self.report, HTTPRequest.Method.get, .put, .delete] {
                let path = method == Self.propfind || method == Self.report ? Self.tasks : Self.tasks + "x.ics"
                let body = method == .put ? Self.calendar(uid: "x", summary: "x") : method == Self.report ? "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token/></d:sync-collection>" : nil
                let response = try await client.execute(uri: path, method: method, headers: bob, body: body.map { ByteBuffer(string: $0) })
                #expect(response.status == .notFound, "\(method)")
            }
            // The same token still works for the JSON API.
            #expect(try await client.execute(uri: "/todos", method: .get, headers: bearer(tokens[0]), body: nil).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func failedBasicCredentialsAreThrottledAndTheRightOnesStillServed(_ backend: Backend) async throws {
        try await withAccountsServer(["alice"], backend: backend) { client, tokens, _ in
            for _ in 0..<AuthThrottle.maxFailures {
                let wrong = try await client.execute(uri: Self.tasks, method: Self.propfind, headers: Self.basic("alice", "todo_wrong"), body: nil)
                #expect(wrong.status == .unauthorized)
            }
            let refused = try await client.execute(uri: Self.tasks, method: Self.propfind, headers: Self.basic("alice", "todo_wrong"), body: nil)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
            let right = try await client.execute(uri: Self.tasks, method: Self.propfind, headers: Self.basic("alice", tokens[0]), body: nil)
            #expect(right.status.code == 207)
        }
    }

    @Test func withTheSharedTokenAnyUserNameAndTheTokenSignIn() async throws {
        try await withServer(options: ServerOptions(token: "s3cret", requestLogLevel: .trace)) { client in
            let path = "/dav/todo/tasks/"
            #expect(try await client.execute(uri: path, method: Self.propfind, headers: Self.basic("me", "s3cret"), body: nil).status.code == 207)
            let refused = try await client.execute(uri: path, method: Self.propfind, headers: Self.basic("me", "wrong"), body: nil)
            #expect(refused.status == .unauthorized && refused.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            #expect(try await client.execute(uri: "/todos", method: .get, headers: bearer("s3cret"), body: nil).status == .ok)
        }
    }

    // MARK: - Resources

    @Test(arguments: Backend.allCases)
    func aTaskIsPutReadChangedAndDeletedWithItsETag(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            let text = Self.calendar(uid: "a@x", summary: "Buy paint\\, brushes", extra: ["X-APPLE-SORT-ORDER:7"])
            let created = try await alice.send(.put, Self.tasks + "a.ics", text, [.ifNoneMatch: "*"])
            #expect(created.status == .created)
            #expect(created.headers[.eTag] == #""1""#)
            let read = try await alice.send(.get, Self.tasks + "a.ics")
            #expect(String(buffer: read.body) == text)
            #expect(read.headers[.eTag] == #""1""#)
            #expect(try await alice.send(.put, Self.tasks + "a.ics", text, [.ifNoneMatch: "*"]).status == .preconditionFailed)
            #expect(try await alice.send(.put, Self.tasks + "a.ics", text, [.ifMatch: #""9""#]).status == .preconditionFailed)
            let changed = Self.calendar(uid: "a@x", summary: "Buy paint", extra: ["X-APPLE-SORT-ORDER:7"])
            #expect(try await alice.send(.put, Self.tasks + "a.ics", changed, [.ifMatch: #""1""#]).status == .noContent)
            // The JSON API sees the same todo, and its edits reach the resource.
            let json = try await alice.send(.get, "/todos/a@x")
            #expect(try json.json["title"] == "Buy paint")
            try await alice.send(.patch, "/todos/a@x", #"{"completed":true,"tags":["home"]}"#, [.contentType: "application/json"])
            let after = String(buffer: try await alice.send(.get, Self.tasks + "a.ics").body)
            #expect(after.contains("STATUS:COMPLETED\r\n") && after.contains("CATEGORIES:home\r\n") && after.contains("X-APPLE-SORT-ORDER:7\r\n"))
            #expect(try await alice.send(.delete, Self.tasks + "a.ics", nil, [.ifMatch: #""1""#]).status == .preconditionFailed)
            #expect(try await alice.send(.delete, Self.tasks + "a.ics").status == .noContent)
            #expect(try await alice.send(.get, Self.tasks + "a.ics").status == .notFound)
            #expect(try await alice.send(.get, "/todos/a@x").status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func aTodoMadeThroughTheJSONAPIIsAResourceNamedByItsID(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            try await alice.send(.post, "/todos", #"{"id":"t1","title":"call mom","priority":"high","dueDate":"2026-12-24"}"#, [.contentType: "application/json"])
            let text = String(buffer: try await alice.send(.get, Self.tasks + "t1.ics").body)
            for line in ["UID:t1", "SUMMARY:call mom", "PRIORITY:1", "DUE;VALUE=DATE:20261224", "STATUS:NEEDS-ACTION"] {
                #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
            }
            // Its UID is taken: another resource may not hold it.
            let conflict = try await alice.send(.put, Self.tasks + "other.ics", Self.calendar(uid: "t1", summary: "again"))
            #expect(conflict.status == .conflict && String(buffer: conflict.body).contains("no-uid-conflict"))
        }
    }

    @Test(arguments: Backend.allCases)
    func aFoldInsideACharacterAndAnEchoedDueDateChangeNothingThatWasNotChanged(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            var body = Array(Self.calendar(uid: "f", summary: "fold", extra: ["DUE:20261224T100000Z"]).utf8)
            let end = Array("END:VTODO".utf8)
            let at = try #require(body.firstRange(of: end)).lowerBound
            body.insert(contentsOf: Array("X-NOTE:caf".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xA9] + Array("\r\n".utf8), at: at)
            let put = try await alice.client.execute(uri: Self.tasks + "f.ics", method: .put, headers: alice.headers, body: ByteBuffer(bytes: body))
            #expect(put.status == .created)
            let served = String(buffer: try await alice.send(.get, Self.tasks + "f.ics").body)
            #expect(served.contains("X-NOTE:café\r\n"), "\(served)")
            // A due time with milliseconds, sent back by a client to the second: not an edit of the due date.
            try await alice.send(.patch, "/todos/f", #"{"dueDate":"2026-12-24T10:00:00.500Z"}"#, [.contentType: "application/json"])
            let version = try await alice.send(.get, "/todos/f").headers[.eTag] ?? ""
            try await alice.send(.put, Self.tasks + "f.ics", Self.calendar(uid: "f", summary: "fold, again", extra: ["DUE:20261224T100000Z"]), [.ifMatch: version])
            let json = try await alice.send(.get, "/todos/f").json
            #expect(json["dueDateEditedAt"] == nil)
            #expect(json["textEditedAt"] != nil)
        }
    }

    // MARK: - Reports

    @Test(arguments: Backend.allCases)
    func multigetQueryAndSyncCollectionAnswerWhatChanged(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            for (name, uid) in [("a.ics", "a"), ("b.ics", "b"), ("c.ics", "c")] {
                try await alice.send(.put, Self.tasks + name, Self.calendar(uid: uid, summary: name))
            }
            try await alice.send(.patch, "/todos/b", #"{"completed":true}"#, [.contentType: "application/json"])
            let multiget = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>\
                <d:href>\(Self.tasks)a.ics</d:href><d:href>\(Self.tasks)missing.ics</d:href></c:calendar-multiget>
                """))
            #expect(Self.hrefs(multiget) == [Self.tasks + "a.ics", Self.tasks + "missing.ics"])
            #expect(multiget.children[0].child(DAVNames.dav, "propstat")?.child(DAVNames.dav, "prop")?.child(DAVNames.caldav, "calendar-data")?.text.contains("UID:a\r\n") == true)
            #expect(multiget.children[1].child(DAVNames.dav, "status")?.text.contains("404") == true)

            let pending = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>\
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/>\
                </c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """))
            #expect(Set(Self.hrefs(pending)) == [Self.tasks + "a.ics", Self.tasks + "c.ics"])
            let events = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR">\
                <c:comp-filter name="VEVENT"/></c:comp-filter></c:filter></c:calendar-query>
                """))
            #expect(Self.hrefs(events).isEmpty)
            try await alice.send(.patch, "/todos/a", #"{"dueDate":"2026-12-24"}"#, [.contentType: "application/json"])
            try await alice.send(.patch, "/todos/c", #"{"dueDate":"2027-03-01T09:00:00.000Z"}"#, [.contentType: "application/json"])
            let december = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>\
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="DUE">\
                <c:time-range start="20261201T000000Z" end="20270101T000000Z"/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """))
            // a is due in December, c in March; b has no DUE, which a prop-filter's time-range needs (RFC 4791, 9.7.2).
            #expect(Set(Self.hrefs(december)) == [Self.tasks + "a.ics"])
            // A time-range on COMPLETED keeps only tasks completed in it: b, not the pending a and c.
            let completed = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>\
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED">\
                <c:time-range start="20000101T000000Z" end="21000101T000000Z"/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """))
            #expect(Self.hrefs(completed) == [Self.tasks + "b.ics"])
            // Hrefs as the client spells them, each answered once.
            let spelled = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>\
                <d:href>/dav/%61lice/tasks/a.ics</d:href><d:href>/dav/%61lice/tasks/a.ics</d:href></c:calendar-multiget>
                """))
            #expect(Self.hrefs(spelled) == ["/dav/%61lice/tasks/a.ics"])
            #expect(spelled.children[0].child(DAVNames.dav, "propstat") != nil)

            func sync(_ token: String) async throws -> (XMLElement, String) {
                let answer = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                    <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                    """))
                return (answer, answer.child(DAVNames.dav, "sync-token")?.text ?? "")
            }
            let (first, token) = try await sync("")
            #expect(Set(Self.hrefs(first)) == [Self.tasks + "a.ics", Self.tasks + "b.ics", Self.tasks + "c.ics"])
            let (nothing, same) = try await sync(token)
            #expect(Self.hrefs(nothing).isEmpty && same == token)
            try await alice.send(.patch, "/todos/a", #"{"title":"a, edited"}"#, [.contentType: "application/json"])
            try await alice.send(.delete, Self.tasks + "c.ics")
            let (changes, _) = try await sync(token)
            #expect(Self.hrefs(changes) == [Self.tasks + "a.ics", Self.tasks + "c.ics"])
            #expect(changes.children[1].child(DAVNames.dav, "status")?.text.contains("404") == true)
            for bad in ["urn:x-todo-server:sync:999", "http://elsewhere/token"] {
                let refused = try await alice.send(Self.report, Self.tasks, "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>\(bad)</d:sync-token></d:sync-collection>")
                #expect(refused.status == .forbidden && String(buffer: refused.body).contains("valid-sync-token"))
            }
        }
    }

    /// Reports are written a page at a time: more todos than a page, each listed once.
    @Test(arguments: Backend.allCases)
    func aListLongerThanAPageIsReportedWholeAndOnce(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            for batch in 0..<3 {
                let operations = (0..<400).map { #"{"method":"POST","body":{"id":"t\#(batch)-\#($0)","title":"task \#($0)"}}"# }
                let answer = try await alice.send(.post, "/todos/_batch", #"{"operations":[\#(operations.joined(separator: ","))]}"#, [.contentType: "application/json"])
                #expect(answer.status == .ok)
            }
            let all = Set((0..<3).flatMap { batch in (0..<400).map { Self.tasks + "t\(batch)-\($0).ics" } })
            let query = try alice.multistatus(try await alice.send(Self.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>\
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>
                """))
            #expect(Self.hrefs(query).count == 1_200 && Set(Self.hrefs(query)) == all)
            let sync = try alice.multistatus(try await alice.send(Self.report, Self.tasks, "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token/></d:sync-collection>"))
            #expect(Self.hrefs(sync).count == 1_200 && Set(Self.hrefs(sync)) == all)
            #expect(sync.child(DAVNames.dav, "sync-token")?.text == "urn:x-todo-server:sync:1200")
            let depth = try alice.multistatus(try await alice.send(Self.propfind, Self.tasks, nil, [Self.depth: "1"]))
            #expect(Self.hrefs(depth).count == 1_201)
        }
    }

    // MARK: - What a client must not be able to do

    @Test(arguments: Backend.allCases)
    func badBodiesGetAClear4xxAndChangeNothing(_ backend: Backend) async throws {
        try await withAlice(backend) { alice, _ in
            let event = Self.calendar(uid: "e", summary: "x").replacingOccurrences(of: "VTODO", with: "VEVENT")
            let twoUIDs = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:1\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:2\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            var folded = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:big\r\nX-BIG:a"
            folded += String(repeating: "\r\n b", count: 250_000) + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            for (body, status) in [("hello", 400), ("", 400), (event, 403), (twoUIDs, 400), (String(repeating: "BEGIN:X\r\n", count: 50), 400)] {
                let response = try await alice.send(.put, Self.tasks + "bad.ics", body)
                #expect(response.status.code == status, "\(body.prefix(30)): \(response.status)")
            }
            // A mebibyte of folded lines is read in one pass: stored, or refused as too large, never a 5xx.
            #expect(try await alice.send(.put, Self.tasks + "big.ics", folded).status.code < 500)
            let laughs = #"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><d:propfind xmlns:d="DAV:"><d:prop>&b;</d:prop></d:propfind>"#
            let external = #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:"><d:prop>&x;</d:prop></d:propfind>"#
            for body in [laughs, external, "<d:propfind xmlns:d=\"DAV:\">", "<d:propfind>&x;</d:propfind>"] {
                let response = try await alice.send(Self.propfind, Self.tasks, body, [Self.depth: "0"])
                #expect(response.status == .badRequest, "\(body.prefix(40))")
                #expect(!String(buffer: response.body).contains("root:"))
            }
            // Past the properties one request may ask for: refused, since each resource's answer would name them all.
            let many = "<d:propfind xmlns:d=\"DAV:\"><d:prop>" + (0..<10_000).map { "<d:p\($0)/>" }.joined() + "</d:prop></d:propfind>"
            let answered = try await alice.send(Self.propfind, Self.tasks, many, [Self.depth: "0"])
            #expect(answered.status == .badRequest)
            #expect(String(buffer: answered.body).contains("at most 100 properties"))
            // The same property named twice is asked for once.
            let twice = try await alice.send(Self.propfind, Self.tasks, "<d:propfind xmlns:d=\"DAV:\"><d:prop>" + String(repeating: "<d:getetag/><d:nope/>", count: 500) + "</d:prop></d:propfind>", [Self.depth: "0"])
            #expect(twice.status.code == 207)
            #expect(String(buffer: twice.body).components(separatedBy: "<d:nope/>").count == 2)
            let listed = try await alice.send(.get, "/todos")
            #expect(String(buffer: listed.body).contains("big") || String(buffer: listed.body) == "[]")
            #expect(!String(buffer: listed.body).contains("\"e\""))
        }
    }
}

/// The namespaces the tests read answers in.
enum DAVNames {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
}
