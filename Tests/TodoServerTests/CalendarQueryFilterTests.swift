import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport
import TodoServer
import TodoXML

/// calendar-query filters evaluated exactly (RFC 4791, 9.7 and 9.9) on both
/// backends: what task apps ask (pending, completed, due in a range), text
/// in each collation, negation, parameters, alarms, nesting, and the zones
/// a TZID names. Each query's answer is the exact set of tasks, never a superset.
struct CalendarQueryFilterTests {
    static let tasks = CalDAVRoutesTests.tasks

    static let fixtures = CalendarQueryCases.fixtures
    static let cases = CalendarQueryCases.cases
    static func object(_ uid: String, _ lines: [String]) -> String { CalendarQueryCases.object(uid, lines) }
    static func query(_ filter: String) -> String { CalendarQueryCases.query(filter) }
    static func todo(_ inner: String) -> String { CalendarQueryCases.todo(inner) }

    @Test(arguments: Backend.allCases)
    func eachFilterKeepsExactlyTheTasksItDescribes(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            for (uid, lines) in Self.fixtures {
                let put = try await alice.send(.put, Self.tasks + uid + ".ics", Self.object(uid, lines))
                #expect(put.status == .created, "\(uid): \(String(buffer: put.body))")
            }
            for (what, filter, expected) in Self.cases {
                let response = try await alice.send(CalDAVRoutesTests.report, Self.tasks, Self.query(filter), [CalDAVRoutesTests.depth: "1"])
                let found = Set(CalDAVRoutesTests.hrefs(try alice.multistatus(response)).map { String($0.dropFirst(Self.tasks.count).dropLast(4)) })
                #expect(found == expected, "\(what)")
            }
        }
    }

    /// A filter the server cannot evaluate exactly is refused, never
    /// answered with every task: an unknown collation, a broken time-range.
    @Test(arguments: Backend.allCases)
    func whatCannotBeEvaluatedExactlyIsRefused(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            try await alice.send(.put, Self.tasks + "a.ics", Self.object("a", Self.fixtures[0].1))
            let refused: [(String, Int, String)] = [
                (Self.todo(#"<c:prop-filter name="SUMMARY"><c:text-match collation="i;basic">milk</c:text-match></c:prop-filter>"#), 403, "supported-collation"),
                (Self.todo(#"<c:time-range start="tomorrow"/>"#), 400, "valid-filter"),
                (Self.todo(#"<c:time-range/>"#), 400, "valid-filter"),
                (Self.todo(#"<c:prop-filter name="SUMMARY"><c:text-match match-type="sounds-like">milk</c:text-match></c:prop-filter>"#), 400, "valid-filter"),
                (Self.todo(#"<c:time-range start="20261202T000000Z" end="20261201T000000Z"/>"#), 400, "valid-filter"),
                // What would make one query try too much on every task.
                (Self.todo(String(repeating: #"<c:prop-filter name="SUMMARY"/>"#, count: 300)), 400, "valid-filter"),
                (Self.todo(String(repeating: #"<c:prop-filter name="SUMMARY"><c:text-match>a</c:text-match></c:prop-filter>"#, count: 33)), 400, "valid-filter"),
                (Self.todo(#"<c:prop-filter name="SUMMARY"><c:text-match>"# + String(repeating: "a", count: 4_097) + "</c:text-match></c:prop-filter>"), 400, "valid-filter"),
            ]
            for (filter, status, condition) in refused {
                let response = try await alice.send(CalDAVRoutesTests.report, Self.tasks, Self.query(filter), [CalDAVRoutesTests.depth: "1"])
                #expect(response.status.code == status, "\(filter)")
                #expect(String(buffer: response.body).contains(condition), "\(filter): \(String(buffer: response.body))")
            }
            let topLevel = try await alice.send(CalDAVRoutesTests.report, Self.tasks, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VTODO"/></c:filter></c:calendar-query>
                """)
            #expect(topLevel.status.code == 400)
            // Past the body limit only a calendar-multiget is read (vdirsyncer's of a whole list).
            let padding = "<!--" + String(repeating: "x", count: 1_100_000) + "-->"
            let large = try await alice.send(CalDAVRoutesTests.report, Self.tasks, Self.query(Self.todo("")) + padding)
            #expect(large.status == .contentTooLarge, "\(large.status)")
            let multiget = try await alice.send(CalDAVRoutesTests.report, Self.tasks, """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>\
                <d:href>\(Self.tasks)a.ics</d:href></c:calendar-multiget>
                """ + padding)
            #expect(multiget.status.code == 207, "\(multiget.status)")
        }
    }

    /// A task changed through the JSON API is filtered by what GET now serves.
    @Test(arguments: Backend.allCases)
    func aTaskIsFilteredAsItReadsNow(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            try await alice.send(.put, Self.tasks + "c.ics", Self.object("c", Self.fixtures[2].1))
            let pending = Self.todo(#"<c:prop-filter name="STATUS"><c:text-match negate-condition="yes">COMPLETED</c:text-match></c:prop-filter>"#)
            func found() async throws -> [String] {
                CalDAVRoutesTests.hrefs(try alice.multistatus(try await alice.send(CalDAVRoutesTests.report, Self.tasks, Self.query(pending))))
            }
            #expect(try await found() == [Self.tasks + "c.ics"])
            try await alice.send(.patch, "/todos/c", #"{"completed":true}"#, [.contentType: "application/json"])
            #expect(try await found().isEmpty)
        }
    }
}
