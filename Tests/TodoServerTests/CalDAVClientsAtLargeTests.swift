import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// CalDAV as clients beyond the two the suites start use it, on both
/// backends: a client given the server's base address, a client that does
/// only Basic, what no client could read back, and methods not served.
struct CalDAVClientsAtLargeTests {
    static let tasks = CalDAVRoutesTests.tasks
    static let propfind = CalDAVRoutesTests.propfind

    static let principalQuery = #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/><d:resourcetype/></d:prop></d:propfind>"#

    @Test(arguments: Backend.allCases)
    func aClientGivenTheBaseAddressIsLedToThePrincipal(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let found = try alice.multistatus(try await alice.send(Self.propfind, "/", Self.principalQuery, [CalDAVRoutesTests.depth: "0"]))
            #expect(CalDAVRoutesTests.hrefs(found) == ["/"])
            let principal = found.child(DAVNames.dav, "response")?.child(DAVNames.dav, "propstat")?.child(DAVNames.dav, "prop")?
                .child(DAVNames.dav, "current-user-principal")?.child(DAVNames.dav, "href")?.text
            #expect(principal == "/dav/alice/")
            let options = try await alice.send(.options, "/")
            #expect(options.status == .ok)
            #expect(options.headers[.init("DAV")!]?.contains("calendar-access") == true)
        }
    }

    /// A client that does only Basic finds it offered, with the realm, on
    /// every DAV request; and asking without credentials first, as clients
    /// do, is a challenge, not a failure the throttle counts.
    @Test(arguments: Backend.allCases)
    func basicIsOfferedAndAFirstTryWithoutCredentialsIsNotAFailure(_ backend: Backend) async throws {
        try await withAccountsServer(["alice"], backend: backend) { client, tokens, _ in
            for (method, path) in [(Self.propfind, "/"), (Self.propfind, Self.tasks), (HTTPRequest.Method.options, "/"), (.get, Self.tasks + "a.ics")] {
                let challenged = try await client.execute(uri: path, method: method, headers: [:], body: nil)
                #expect(challenged.status == .unauthorized, "\(method) \(path)")
                let offered = challenged.headers[values: .wwwAuthenticate]
                #expect(offered.first == #"Basic realm="todo-server", charset="UTF-8""#, "\(method) \(path): \(offered)")
                #expect(offered.contains("Bearer"))
            }
            // The JSON API offers Bearer only (a browser would ask for a Basic password).
            #expect(try await client.send(.get, "/todos").headers[values: .wwwAuthenticate] == ["Bearer"])
            // Many first tries without credentials: none counted.
            for _ in 0..<30 {
                #expect(try await client.execute(uri: "/", method: Self.propfind, headers: [:], body: nil).status == .unauthorized)
            }
            let wrong = try await client.execute(uri: "/", method: Self.propfind, headers: CalDAVRoutesTests.basic("alice", "todo_wrong"), body: nil)
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(
                uri: "/", method: Self.propfind, headers: CalDAVRoutesTests.basic("alice", tokens[0]), body: ByteBuffer(string: Self.principalQuery)
            )
            #expect(right.status.code == 207)
        }
    }

    /// What no client could read back is refused with a 4xx and a CalDAV
    /// precondition, alike on both backends, and nothing is stored.
    @Test(arguments: Backend.allCases)
    func whatNoClientCouldReadBackIsRefusedAndNothingStored(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let calendar = { (uid: String, summary: String, extra: [String]) in CalDAVRoutesTests.calendar(uid: uid, summary: summary, extra: extra) }
            let refused: [(String, String, String)] = [
                ("nul.ics", calendar("nul", "a\u{0}b", []), "valid-calendar-data"),
                ("bell.ics", calendar("bell", "ring", ["DESCRIPTION:a\u{7}b"]), "valid-calendar-data"),
                ("param.ics", calendar("param", "p", ["X-A;X-P=\"a\u{1}\":v"]), "valid-calendar-data"),
                ("due.ics", calendar("due", "soon", ["DUE:tomorrow-ish"]), "valid-calendar-data"),
                ("month.ics", calendar("month", "no month 13", ["DTSTART:20261301T100000Z"]), "valid-calendar-data"),
                ("completed.ics", calendar("completed", "done", ["COMPLETED:yesterday"]), "valid-calendar-data"),
                ("nested.ics", calendar("nested", "outer", ["BEGIN:VTODO", "UID:inner", "SUMMARY:inner", "END:VTODO"]), "valid-calendar-object-resource"),
                ("alarm.ics", calendar("alarm", "outer", ["BEGIN:VALARM", "BEGIN:VTODO", "UID:x", "END:VTODO", "END:VALARM"]), "valid-calendar-object-resource"),
                ("two.ics", calendar("two", "one", []).replacingOccurrences(of: "END:VCALENDAR", with: "BEGIN:VTODO\r\nUID:two\r\nSUMMARY:again\r\nEND:VTODO\r\nEND:VCALENDAR"),
                 "valid-calendar-object-resource"),
            ]
            for (name, body, condition) in refused {
                let response = try await alice.send(.put, Self.tasks + name, body)
                #expect(response.status == .badRequest, "\(name): \(response.status)")
                #expect(String(buffer: response.body).contains("<c:\(condition)/>"), "\(name): \(String(buffer: response.body))")
            }
            for name in ["a%00b.ics", "a%2Fb.ics", "%FF%FE.ics"] {
                let response = try await alice.send(.put, Self.tasks + name, calendar("n-\(name.count)", "named", []))
                #expect(response.status == .badRequest, "\(name): \(response.status)")
            }
            #expect(String(buffer: try await alice.send(.get, "/todos").body) == "[]")
            // A tab, and an occurrence changed beside its series, are fine.
            #expect(try await alice.send(.put, Self.tasks + "tab.ics", calendar("tab", "a\tb", ["DUE;VALUE=DATE:20261224"])).status == .created)
            let series = calendar("series", "weekly", ["DTSTART:20261201T100000Z", "RRULE:FREQ=WEEKLY"]).replacingOccurrences(
                of: "END:VCALENDAR",
                with: "BEGIN:VTODO\r\nUID:series\r\nRECURRENCE-ID:20261208T100000Z\r\nSUMMARY:moved\r\nEND:VTODO\r\nEND:VCALENDAR"
            )
            #expect(try await alice.send(.put, Self.tasks + "series.ics", series).status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func methodsNotServedAre405WithWhatIs(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            #expect(try await alice.send(.put, Self.tasks + "a.ics", CalDAVRoutesTests.calendar(uid: "a", summary: "a")).status == .created)
            for method in ["PROPPATCH", "MKCALENDAR", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"] {
                for path in [Self.tasks, Self.tasks + "a.ics", "/dav/alice/", "/dav/alice/shopping/"] {
                    let response = try await alice.send(HTTPRequest.Method(method)!, path)
                    #expect(response.status == .methodNotAllowed, "\(method) \(path): \(response.status)")
                    #expect(response.headers[.allow] == "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT")
                }
            }
            #expect(try await alice.send(.options, Self.tasks).headers[.allow] == "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT")
        }
    }
}
