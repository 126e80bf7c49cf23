import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServer

/// Tasks written through CalDAV as phone and desktop apps write them, then
/// edited through the JSON API: a PUT is stored as it came, and an edit
/// rewrites only the properties of the field it changed. Every other line
/// (a category with a space, a DTSTART with a TZID, a STATUS:COMPLETED with
/// no COMPLETED, an alarm) stays byte for byte, on both backends.
struct CalDAVKeepsWhatAppsWroteTests {
    /// One edit through the JSON API, and the VTODO properties it may rewrite.
    enum Edit: CaseIterable {
        case title, done, due, priority, tags, note

        static let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED"]

        func touched(_ task: AppWrittenTask) -> Set<String> {
            switch self {
            case .title: Self.stamps.union(["SUMMARY"])
            // A started task completed keeps when it was started (X-TODO-START).
            case .done: Self.stamps.union(["STATUS", "COMPLETED", "PERCENT-COMPLETE", "X-TODO-START"])
            // A DTSTART the new DUE no longer allows beside it (a date before a time) moves.
            case .due: Self.stamps.union(task.startIsDate ? ["DUE", "DTSTART", "X-TODO-SCHEDULED"] : ["DUE"])
            case .priority: Self.stamps.union(["PRIORITY"])
            case .tags: Self.stamps.union(["CATEGORIES"])
            case .note: Self.stamps.union(["DESCRIPTION"])
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func anEditThroughTheJSONAPIRewritesOnlyWhatItChanged(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let json: HTTPFields = [.contentType: "application/json"]
            for seed in UInt64(1)...60 {
                var random = SeededRandom(seed: seed)
                let task = AppWrittenTask(&random)
                let edit = Edit.allCases[Int(seed) % Edit.allCases.count]
                let href = CalDAVRoutesTests.tasks + "app-\(seed).ics"
                let put = try await alice.send(.put, href, task.text, [.contentType: "text/calendar"])
                #expect(put.status == .created, "seed \(seed): \(put.status) \(put.text)")
                // Stored as it came: what GET serves is what was sent, so the PUT gave its ETag.
                #expect(put.headers[.eTag] != nil, "seed \(seed)")
                let before = try await alice.send(.get, href).text
                #expect(before == task.text, "seed \(seed): \(before)")

                let path = "/todos/" + (task.uid.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? task.uid)
                let current = try await alice.send(.get, path).json
                let body: String
                switch edit {
                case .title: body = #"{"title":"edited through the API"}"#
                case .done: body = #"{"completed":\#(!task.isDone)}"#
                case .due: body = #"{"dueDate":"2030-01-01T10:00:00Z"}"#
                case .priority: body = current["priority"]?.string == "low" ? #"{"priority":"high"}"# : #"{"priority":"low"}"#
                case .tags:
                    let tags = (current["tags"].map { tags in (0..<tags.count).compactMap { tags[$0]?.string } } ?? []) + ["urgent"]
                    body = #"{"tags":["# + tags.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
                case .note: body = #"{"note":"edited note"}"#
                }
                let patch = try await alice.send(.patch, path, body, json)
                #expect(patch.status == .ok, "seed \(seed): \(patch.status) \(patch.text)")
                let after = try await alice.send(.get, href).text
                let touched = edit.touched(task)
                #expect(
                    AppWrittenTask.untouchedLines(after, touched: touched) == AppWrittenTask.untouchedLines(before, touched: touched),
                    "seed \(seed), \(edit): before\n\(before)\nafter\n\(after)"
                )
                if edit == .tags {
                    #expect(AppWrittenTask.categories(after) == AppWrittenTask.categories(before).union(["urgent"]), "seed \(seed): \(after)")
                }
            }
        }
    }

    /// The case of the report: a phone's category with a space, and its
    /// DTSTART in Berlin time, kept through a tag edit and a due edit.
    @Test(arguments: Backend.allCases)
    func aPhonesCategoryAndStartTimeSurviveEditsOfOtherFields(_ backend: Backend) async throws {
        try await CalDAVRoutesTests().withAlice(backend) { alice, _ in
            let json: HTTPFields = [.contentType: "application/json"]
            let uid = "7E1B2C3D-0000-4000-8000-0000000000AA"
            let phone = CalDAVRoutesTests.calendar(uid: uid, summary: "send the parcel", extra: [
                "CATEGORIES:home,post office", "DTSTART;TZID=Europe/Berlin:20261201T090000", "DUE;TZID=Europe/Berlin:20261203T180000",
            ])
            #expect(try await alice.send(.put, CalDAVRoutesTests.tasks + "parcel.ics", phone).status == .created)
            #expect(try await alice.send(.patch, "/todos/\(uid)", #"{"tags":["home","post office","urgent"]}"#, json).status == .ok)
            #expect(try await alice.send(.patch, "/todos/\(uid)", #"{"dueDate":"2026-12-05T17:00:00Z"}"#, json).status == .ok)
            let served = try await alice.send(.get, CalDAVRoutesTests.tasks + "parcel.ics").text
            #expect(AppWrittenTask.categories(served) == ["home", "post office", "urgent"], "\(served)")
            #expect(served.contains("\r\nDTSTART;TZID=Europe/Berlin:20261201T090000\r\n"), "\(served)")
            #expect(served.contains("\r\nDUE:20261205T170000Z\r\n"), "\(served)")
        }
    }
}
