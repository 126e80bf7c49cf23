import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// Repeating tasks as desktop apps write them to todo-server's CalDAV, on
/// both backends: an occurrence Thunderbird completed as an instance of its
/// own moves the series on once, for JSON clients and CalDAV clients alike;
/// a rule the engine does not follow is kept in `repeat`, unchanged.
struct CalDAVRepeatsTests {
    static func task(_ uid: String, _ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VTODO", "UID:\(uid)",
          "DTSTAMP:20301101T080000Z", "SUMMARY:water the plants"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    @Test(arguments: Backend.allCases)
    func anOccurrenceThunderbirdCompletedMovesTheSeriesOnceForEveryClient(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let href = CalDAVRoutesTests.tasks + "plants.ics"
            let series = Self.task("plants", ["DUE;VALUE=DATE:20301203", "RRULE:FREQ=WEEKLY"])
            #expect(try await alice.send(.put, href, series, [.contentType: "text/calendar"]).status == .created)
            let instance = [
                "BEGIN:VTODO", "UID:plants", "RECURRENCE-ID;VALUE=DATE:20301203", "DTSTAMP:20301203T180000Z", "SUMMARY:water the plants",
                "STATUS:COMPLETED", "COMPLETED:20301203T180000Z", "END:VTODO",
            ].joined(separator: "\r\n")
            let completed = series.replacingOccurrences(of: "END:VCALENDAR", with: instance + "\r\nEND:VCALENDAR")
            let put = try await alice.send(.put, href, completed, [.contentType: "text/calendar"])
            #expect(put.status == .noContent, "\(put.status) \(put.text)")
            // Rewritten, so no ETag: the client fetches what is now stored.
            #expect(put.headers[.eTag] == nil)
            let json = try await alice.send(.get, "/todos/plants").json
            #expect(json["dueDate"]?.string == "2030-12-10" && json["completed"] == .bool(false), "\(json)")
            let served = try await alice.send(.get, href).text
            #expect(served.contains("DUE;VALUE=DATE:20301210") && served.contains("RECURRENCE-ID;VALUE=DATE:20301203"), "\(served)")
            // Sent again as it is now served, it moves nothing more.
            #expect(try await alice.send(.put, href, served, [.contentType: "text/calendar"]).status == .noContent)
            #expect(try await alice.send(.get, "/todos/plants").json["dueDate"]?.string == "2030-12-10")
        }
    }

    @Test(arguments: Backend.allCases)
    func aRuleTheEngineDoesNotFollowIsKeptInRepeat(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let href = CalDAVRoutesTests.tasks + "boiler.ics"
            let text = Self.task("boiler", ["DUE:20301203T090000Z", "RRULE:FREQ=DAILY;BYHOUR=9,17"])
            #expect(try await alice.send(.put, href, text, [.contentType: "text/calendar"]).status == .created)
            #expect(try await alice.send(.get, "/todos/boiler").json["repeat"]?.string == "FREQ=DAILY;BYHOUR=9,17")
            // Completed through the JSON API: the rule stays as it came.
            #expect(try await alice.send(.patch, "/todos/boiler", #"{"completed":true}"#, [.contentType: "application/json"]).status == .ok)
            let served = try await alice.send(.get, href).text
            #expect(served.contains("RRULE:FREQ=DAILY;BYHOUR=9,17\r\n") && served.contains("STATUS:COMPLETED"), "\(served)")
        }
    }
}
