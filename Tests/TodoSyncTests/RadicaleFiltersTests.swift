import Foundation
import TestSupport
import Testing
import TodoXML

/// The calendar-query cases todo-server answers exactly (CalendarQueryFilterTests),
/// asked of Radicale, a CalDAV server of others, over the same tasks: where
/// both implement RFC 4791 the answers agree, so the expected sets are the
/// RFC's and not only ours.
@Suite(.threadsOfTheirOwn)
struct RadicaleFiltersTests {
    /// Where Radicale 3 answers otherwise, and why the RFC's answer is the
    /// expected one: its `i;ascii-casemap` folds every letter, not ASCII's
    /// alone (RFC 4790, 9.2: Ü stays Ü); it does not match a bare or
    /// `is-not-defined` comp-filter on a component inside the task (VALARM)
    /// or beside it (VTIMEZONE, 9.7.1); and its parser turns TZID into the
    /// time's zone, so a param-filter on TZID (9.7.3) never sees it.
    static let radicaleDiffers: Set<String> = [
        "ascii-casemap leaves Ü", "with an alarm", "without one", "a parameter not defined", "a parameter's value", "a time zone component",
    ]

    @Test(.enabled(if: Radicale.installed, "Radicale is not in .build/venv: bash .ci/run installs it"))
    func radicaleKeepsTheSameTasksForEachFilter() async throws {
        let radicale = try Radicale()
        try await radicale.start()
        try await radicale.makeCalendars()
        let list = radicale.origin + "/alice/tasks/"
        for (uid, lines) in CalendarQueryCases.fixtures {
            let put = try await radicale.curl([
                "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", CalendarQueryCases.object(uid, lines), list + uid + ".ics",
            ])
            #expect(put.status == "201", "\(uid): \(put.body)")
        }
        var differing: [String: String] = [:]
        for (what, filter, expected) in CalendarQueryCases.cases {
            let answer = try await radicale.curl([
                "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data-binary", CalendarQueryCases.query(filter), list,
            ])
            guard answer.status == "207", let multistatus = try? XMLReader.read(Array(answer.body.utf8)) else {
                differing[what] = "\(answer.status) \(answer.body.prefix(200))"
                continue
            }
            let found = Set(multistatus.children("DAV:", "response").compactMap { response -> String? in
                guard let href = response.child("DAV:", "href")?.text, href.hasSuffix(".ics") else { return nil }
                return String(href.split(separator: "/").last!.dropLast(4))
            })
            if found != expected { differing[what] = "\(found.sorted())" }
        }
        #expect(Set(differing.keys) == Self.radicaleDiffers, "Radicale answered: \(differing)")
    }
}
