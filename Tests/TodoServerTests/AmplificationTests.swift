import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Small requests that ask for a large answer, against a real `todo-server`
/// process holding 10,000 todos, on each backend: each is refused with a
/// 4xx or answered as a stream, and the server's peak memory (VmHWM, read
/// from /proc) grows by under 50 MB.
@Suite(.serialized)
struct AmplificationTests {
    static let tasks = "/dav/todo/tasks/"

    /// The process's peak resident memory so far, in bytes.
    static func peakMemory(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// One request on its own connection: the status code and the answer's size.
    static func exchange(_ port: Int, _ method: String, _ path: String, depth: String? = nil, body: String) async throws -> (status: Int, bytes: Int) {
        let connection = try await RawConnection(port: port)
        let head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/xml\r\nContent-Length: \(body.utf8.count)\r\n"
            + (depth.map { "Depth: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n"
        try await connection.send(head + body)
        let answer = try #require(try await connection.readUntilClosed(timeout: .seconds(120)), "\(method) \(path): no answer")
        let status = Int(answer.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
        return (status, answer.utf8.count)
    }

    static func propfind(_ properties: [String]) -> String {
        #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:x-probe"><d:prop>"#
            + properties.joined() + "</d:prop></d:propfind>"
    }

    @Test(arguments: Backend.allCases)
    func askingForMuchOfALargeListIsRefusedOrStreamedInBoundedMemory(_ backend: Backend) async throws {
        let server = try ServerProcess(["--port", "0", "--database", try await makeDatabaseArgument(backend)])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let port = try await server.port()
        let pid = server.process.processIdentifier
        for batch in 0..<10 {
            let operations = (0..<1_000).map { #"{"method":"POST","body":{"title":"todo \#(batch)-\#($0)","tags":["home"]}}"# }
            let body = #"{"operations":["# + operations.joined(separator: ",") + "]}"
            let connection = try await RawConnection(port: port)
            try await connection.send("POST /todos/_batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            #expect(try await connection.readUntilClosed(timeout: .seconds(120))?.hasPrefix("HTTP/1.1 200") == true)
        }
        // Warmed up by what clients ask every sync: the list's ETags.
        let plain = try await Self.exchange(port, "PROPFIND", Self.tasks, depth: "1", body: Self.propfind(["<d:getetag/>"]))
        #expect(plain.status == 207)
        let before = try Self.peakMemory(pid)

        // The probe's request: 10,000 unknown properties, about 99 KB, on every resource.
        let unknown = (0..<10_000).map { "<x:p\($0)/>" }
        #expect(Self.propfind(unknown).utf8.count > 90_000)
        let refused = try await Self.exchange(port, "PROPFIND", Self.tasks, depth: "1", body: Self.propfind(unknown))
        #expect(refused.status == 400)
        #expect(refused.bytes < 2_000)

        // The most a request may ask for: 100 properties, 4 KB of names, answered for every resource.
        let most = (0..<100).map { "<x:\(String(repeating: "q", count: 26))\(String(format: "%02d", $0))/>" }
        let streamed = try await Self.exchange(port, "PROPFIND", Self.tasks, depth: "1", body: Self.propfind(most))
        #expect(streamed.status == 207)
        #expect(streamed.bytes > 10_000 * 100 * 28)

        // A multiget naming every resource, with its calendar data.
        let listing = try await RawConnection(port: port)
        try await listing.send("GET /todos?_limit=10000 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let listed = try #require(try await listing.readUntilClosed(timeout: .seconds(120)))
        let body = try #require(listed.range(of: "\r\n\r\n")).upperBound
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed[body...].utf8)) as? [[String: Any]])
        let ids = items.compactMap { $0["id"] as? String }
        #expect(ids.count == 10_000)
        let multiget = #"<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
            + ids.map { "<d:href>\(Self.tasks)\($0).ics</d:href>" }.joined() + "</c:calendar-multiget>"
        let everything = try await Self.exchange(port, "REPORT", Self.tasks, depth: "1", body: multiget)
        #expect(everything.status == 207)
        #expect(everything.bytes > 10_000 * 300)

        let growth = try Self.peakMemory(pid) - before
        #expect(growth < 50 * 1024 * 1024, "peak memory grew by \(growth / 1024 / 1024) MB")
    }
}

/// Pages bounded by bytes as well as by count: a list of large todos is read
/// in more, smaller pages, and every report still answers each todo once.
struct PagesBoundedByBytesTests {
    @Test(arguments: Backend.allCases)
    func largeTodosAreReportedWholeAndOnce(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let json: HTTPFields = [.contentType: "application/json"]
            for index in 0..<12 {
                let title = String(repeating: "\(index % 10)", count: index.isMultiple(of: 3) ? 10 : 900_000)
                #expect(try await alice.send(.post, "/todos", #"{"id":"big\#(index)","title":"\#(title)"}"#, json).status == .created)
            }
            let query = #"<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
                + #"<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>"#
            let sync = #"<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:prop><d:getetag/></d:prop></d:sync-collection>"#
            let etags = #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>"#
            // A multiget of them all, a missing one among them, in an order of its own.
            let named = [11, 0, 5, 99, 7, 3, 1, 2, 4, 6, 8, 9, 10].map { "\(CalDAVRoutesTests.tasks)big\($0).ics" }
            let multiget = #"<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
                + named.map { "<d:href>\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
            let got = try alice.multistatus(try await alice.send(CalDAVRoutesTests.report, CalDAVRoutesTests.tasks, multiget))
            #expect(CalDAVRoutesTests.hrefs(got) == named)
            #expect(got.children(DAVNames.dav, "response").filter { $0.child(DAVNames.dav, "status")?.text.contains("404") == true }.count == 1)
            for (method, body, depth) in [(CalDAVRoutesTests.report, query, "1"), (CalDAVRoutesTests.report, sync, "1"), (CalDAVRoutesTests.propfind, etags, "1")] {
                let answer = try alice.multistatus(try await alice.send(method, CalDAVRoutesTests.tasks, body, [CalDAVRoutesTests.depth: depth]))
                let hrefs = CalDAVRoutesTests.hrefs(answer).filter { $0.hasSuffix(".ics") }
                #expect(hrefs.sorted() == (0..<12).map { "\(CalDAVRoutesTests.tasks)big\($0).ics" }.sorted(), "\(method)")
            }
        }
    }
}
