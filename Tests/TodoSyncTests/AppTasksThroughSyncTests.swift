import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// A task a phone wrote through todo-server's CalDAV, edited here and sent
/// back by `todo sync` over the JSON API: the edit rewrites only the
/// properties of the field it changed, and a category no tag of ours can
/// be (`post office`) stays beside the tags we send.
///
/// Each case runs a `todo-server` process of its own: a server in the test
/// process shares its threads with the whole run, whose blocking work kept
/// it from answering within the client's read timeout.
@Suite(.serialized)
struct AppTasksThroughSyncTests {
    static let transport = AsyncHTTPTransport(timeout: .seconds(60))

    /// Runs `body` against a `todo-server` process on a fresh SQLite file.
    static func withServerProcess(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-app-tasks-\(UUID().uuidString).sqlite").path
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        try await body("http://127.0.0.1:\(try await server.port())")
    }

    /// Sends the task through CalDAV, as the phone does.
    static func put(_ text: String, at url: String, name: String) async throws {
        let response = try await transport.send(HTTPRequestData(
            method: "PUT", url: "\(url)/dav/todo/tasks/\(name)", headers: ["content-type": "text/calendar"], body: Array(text.utf8)
        ))
        #expect(response.status == 201, "\(response.text)")
    }

    static func served(at url: String, name: String) async throws -> String {
        try await transport.send(HTTPRequestData(method: "GET", url: "\(url)/dav/todo/tasks/\(name)", headers: [:], body: nil)).text
    }

    @Test func aTagAddedHereKeepsThePhonesCategoryWithASpace() async throws {
        try await Self.withServerProcess { url in
            let phone = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:1234567", "DTSTAMP:20261120T100000Z",
                "SUMMARY:send the parcel", "CATEGORIES:home,post office", "DTSTART;TZID=Europe/Berlin:20261201T090000",
                "DUE;TZID=Europe/Berlin:20261203T180000", "END:VTODO", "END:VCALENDAR",
            ].map { $0 + "\r\n" }.joined()
            try await Self.put(phone, at: url, name: "parcel.ics")
            let replica = try Replica(transport: Self.transport, server: url)
            try await replica.sync()
            let item = try #require(try replica.todos().first)
            #expect(item.tags == ["home"])
            var edited = item
            edited.tags = ["home", "urgent"]
            try replica.db.updateTodos([item.stamping(edited, at: Date())])
            try await replica.sync()

            let served = try await Self.served(at: url, name: "parcel.ics")
            #expect(AppWrittenTask.categories(served) == ["home", "post office", "urgent"], "\(served)")
            #expect(served.contains("\r\nDTSTART;TZID=Europe/Berlin:20261201T090000\r\n"), "\(served)")
            let json = try JSONValue.parse(try await Self.transport.send(HTTPRequestData(method: "GET", url: "\(url)/todos/1234567", headers: [:], body: nil)).body)
            #expect(json["tags"] == .array([.string("home"), .string("urgent"), .string("post office")]), "\(json)")
            // Nothing more to send: the category we cannot hold is no difference.
            let again = try await replica.sync()
            #expect(again.pushed == 0)
        }
    }

    /// Tasks a phone linked by UIDs that are no lower-case UUIDs (`1001`,
    /// Apple's upper-case ones, `task-77@host`), through the JSON API: the
    /// server names the linked todos by those ids, `todo sync` links the
    /// todos, and a link made or removed here reaches the phone by the same names.
    @Test func linksByAppsUIDsGoThroughTheJSONAPIBothWays() async throws {
        try await Self.withServerProcess { url in
            let apple = "8C5A0F27-5B7E-4B6A-9E0B-1D2C3B4A5F60"
            func task(_ uid: String, _ summary: String, _ lines: [String] = []) -> String {
                (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z",
                  "SUMMARY:\(summary)"] + lines + ["END:VTODO", "END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
            }
            try await Self.put(task("1001", "Trip"), at: url, name: "1001.ics")
            try await Self.put(task("1002", "Pack bags", ["RELATED-TO;RELTYPE=PARENT:1001"]), at: url, name: "1002.ics")
            try await Self.put(task(apple, "Book hotel", ["RELATED-TO:1001"]), at: url, name: "hotel.ics")
            try await Self.put(task("task-77@host", "Renew passport", ["RELATED-TO;RELTYPE=DEPENDS-ON:1002"]), at: url, name: "passport.ics")
            func json(_ id: String) async throws -> JSONValue {
                try JSONValue.parse(try await Self.transport.send(HTTPRequestData(method: "GET", url: "\(url)/todos/\(id)", headers: [:], body: nil)).body)
            }
            #expect(try await json("1002")["parent"] == .string("1001"))
            #expect(try await json("task-77@host")["blockedBy"] == .array([.string("1002")]))

            let replica = try Replica(transport: Self.transport, server: url)
            try await replica.sync()
            let todos = Dictionary(try replica.todos().map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
            let trip = try #require(todos["Trip"]), pack = try #require(todos["Pack bags"])
            let hotel = try #require(todos["Book hotel"]), passport = try #require(todos["Renew passport"])
            #expect(pack.parent == trip.id && hotel.parent == trip.id && passport.blockedBy == [pack.id])

            var moved = passport
            moved.parent = hotel.id
            var unlinked = pack
            unlinked.parent = nil
            try replica.db.updateTodos([passport.stamping(moved, at: Date()), pack.stamping(unlinked, at: Date())])
            try await replica.sync()
            #expect(try await json("task-77@host")["parent"] == .string(apple), "the id the server knows, as the phone wrote it")
            #expect(try await json("1002")["parent"] == .null)
            let passportText = try await Self.served(at: url, name: "passport.ics")
            #expect(passportText.contains("RELATED-TO;RELTYPE=PARENT:\(apple)\r\n"), "\(passportText)")
            #expect(passportText.contains("RELATED-TO;RELTYPE=DEPENDS-ON:1002\r\n"), "\(passportText)")
            #expect(!(try await Self.served(at: url, name: "1002.ics")).contains("RELATED-TO"))
            #expect(try await replica.sync().pushed == 0)
        }
    }

    /// Random tasks as apps write them; each edited here in one field and synced.
    @Test(arguments: (UInt64(1)...12).map { $0 })
    func anEditSyncedBackRewritesOnlyWhatItChanged(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let task = AppWrittenTask(&random)
        try await Self.withServerProcess { url in
            try await Self.put(task.text, at: url, name: "app.ics")
            let replica = try Replica(transport: Self.transport, server: url)
            try await replica.sync()
            let item = try #require(try replica.todos().first)
            var edited = item
            let touched: Set<String>
            switch seed % 6 {
            case 0:
                edited.text = "edited here"
                touched = ["SUMMARY"]
            case 1:
                edited = item.marking(done: !item.isDone, at: Date())
                touched = ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]
            case 2:
                edited.due = .moment(Date(timeIntervalSince1970: 1_893_492_000))
                touched = task.startIsDate ? ["DUE", "DTSTART", "X-TODO-SCHEDULED"] : ["DUE"]
            case 3:
                edited.priority = item.priority == .low ? .high : .low
                touched = ["PRIORITY"]
            case 4:
                edited.tags = TodoTags.normalized(item.tags + ["urgent"])
                touched = ["CATEGORIES"]
            default:
                edited.note = "edited note"
                touched = ["DESCRIPTION"]
            }
            try replica.db.updateTodos([item.stamping(edited, at: Date())])
            try await replica.sync()
            let after = try await Self.served(at: url, name: "app.ics")
            let excused = touched.union(["DTSTAMP", "LAST-MODIFIED"])
            #expect(
                AppWrittenTask.untouchedLines(after, touched: excused) == AppWrittenTask.untouchedLines(task.text, touched: excused),
                "seed \(seed): sent\n\(task.text)\nserved\n\(after)"
            )
            if seed % 6 == 4 {
                #expect(AppWrittenTask.categories(after) == AppWrittenTask.categories(task.text).union(["urgent"]), "seed \(seed): \(after)")
            }
        }
    }
}
