import Foundation
import TestSupport
import Testing
import TodoCore

/// Repeating tasks as desktop clients complete them, through Radicale and
/// two `todo` replicas: Thunderbird's instance (a VTODO of the same UID with
/// RECURRENCE-ID and STATUS:COMPLETED beside the series), python-caldav's
/// completed copy and its RECURRENCE-ID instances (PyPI's `caldav`, run by
/// `Scripts/caldav_complete.py`). One open occurrence after every
/// completion, there and here. And a rule the engine does not follow:
/// kept, said, completed here without a next, never dropped.
@Suite("Repeats completed by desktop clients", .threadsOfTheirOwn, .serialized, .enabled(if: Radicale.withPythonCaldav, "Radicale and caldav are not in .build/venv: bash .ci/run installs them"))
struct DesktopRepeatsTests {
    static let script = CalDAVClientsTests.repository.appendingPathComponent("Tests/TodoSyncTests/Scripts/caldav_complete.py")

    func radicale() async throws -> Radicale {
        let server = try Radicale()
        try await server.start()
        try await server.makeCalendars()
        return server
    }

    /// Adds the weekly todo on `a`, syncs both replicas; its id.
    func weekly(_ server: Radicale) async throws -> String {
        #expect(try await server.todo(["add", "water the plants", "--due", "2030-12-03", "--repeat", "weekly"], replica: "a").status == 0)
        try await server.sync("a")
        try await server.sync("b")
        return try #require(try await server.todos("a").first?["id"] as? String)
    }

    /// The days the replica's open todos are due on (python-caldav moves a
    /// day's due date on as a time of that day).
    func open(_ server: Radicale, _ replica: String) async throws -> [String?] {
        try await server.todos(replica).filter { $0["done"] as? Bool == false }.map { ($0["due"] as? String).map { String($0.prefix(10)) } }
    }

    /// The object's text and ETag on the server.
    func object(_ server: Radicale, _ id: String) async throws -> (text: String, etag: String) {
        let (status, body) = try await server.curl(["-i", server.origin + "/alice/tasks/\(id).ics"])
        #expect(status == "200")
        let etag = try #require(body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5)
            .trimmingCharacters(in: .whitespaces))
        return (try #require(body.components(separatedBy: "\r\n\r\n").dropFirst().first), etag)
    }

    func put(_ server: Radicale, _ id: String, _ text: String, etag: String? = nil) async throws {
        let match = etag.map { ["-H", "If-Match: \($0)"] } ?? ["-H", "If-None-Match: *"]
        let put = try await server.curl(["-X", "PUT"] + match + ["-H", "Content-Type: text/calendar", "--data-binary", text, server.origin + "/alice/tasks/\(id).ics"])
        #expect(put.status == "204" || put.status == "201", "PUT: \(put)")
    }

    /// Thunderbird completes an occurrence: an instance beside the series,
    /// which stays as it was. The series moves on here, once; completed
    /// here after that, one next occurrence, on both replicas and the server.
    @Test func thunderbirdsCompletedInstanceMovesTheSeriesOnOnce() async throws {
        let server = try await radicale()
        let id = try await weekly(server)
        let (text, etag) = try await object(server, id)
        let instance = [
            "BEGIN:VTODO", "UID:\(id)", "RECURRENCE-ID;VALUE=DATE:20301203", "SUMMARY:water the plants", "DUE;VALUE=DATE:20301203",
            "STATUS:COMPLETED", "COMPLETED:20301203T180000Z", "PERCENT-COMPLETE:100", "DTSTAMP:20301203T180000Z", "END:VTODO",
        ].joined(separator: "\r\n")
        try await put(server, id, text.replacingOccurrences(of: "END:VCALENDAR", with: instance + "\r\nEND:VCALENDAR"), etag: etag)
        try await server.sync("a")
        #expect(try await open(server, "a") == ["2030-12-10"])
        #expect(try await server.todo(["done", String(id.prefix(8))], replica: "a").status == 0)
        try await server.sync("a")
        try await server.sync("b")
        #expect(try await open(server, "a") == ["2030-12-17"])
        #expect(try await open(server, "b") == ["2030-12-17"])
        let onServer = try server.stored().values.filter { !$0.components(separatedBy: "BEGIN:VTODO")[1].contains("STATUS:COMPLETED") }
        #expect(onServer.count == 1, "one open series on the server: \(onServer)")
        // Nothing more to do: the moved series is not read as moved again.
        #expect(try await server.sync("a").contains("0 pulled, 0 pushed"))
    }

    /// python-caldav completes it, as a completed copy (`safe`: one task
    /// done, the series moved on in a task of its own) or as instances
    /// (`thisandfuture`); then `todo` completes the next.
    @Test(arguments: ["safe", "thisandfuture"])
    func pythonCaldavsCompletionLeavesOneOpenOccurrence(mode: String) async throws {
        let server = try await radicale()
        let id = try await weekly(server)
        let done = try await Radicale.offPool {
            try runProgram(Radicale.python, [Self.script.path, server.origin + "/alice/tasks/", "alice", "secret", id, mode, "2030-12-03T18:00:00+00:00"])
        }
        #expect(done.status == 0, "caldav_complete.py: \(done.out)\(done.err)")
        try await server.sync("a")
        try await server.sync("b")
        for replica in ["a", "b"] {
            let todos = try await server.todos(replica)
            #expect(try await open(server, replica) == ["2030-12-10"], "\(replica): \(todos)")
        }
        let pending = try #require(try await server.todos("a").first { $0["done"] as? Bool == false }?["id"] as? String)
        #expect(try await server.todo(["done", String(pending.prefix(8))], replica: "a").status == 0)
        try await server.sync("a")
        try await server.sync("b")
        for replica in ["a", "b"] {
            let todos = try await server.todos(replica)
            #expect(try await open(server, replica) == ["2030-12-17"], "\(replica): \(todos)")
        }
    }

    /// A rule beyond the engine, and one on a task with no DUE (Thunderbird
    /// repeats from DTSTART): kept on every sync, shown as kept, completed
    /// here with a word that the app makes the next, and sent back unchanged.
    @Test func aRuleTheEngineDoesNotFollowIsKeptSaidAndCompletedWithoutANext() async throws {
        let server = try await radicale()
        func task(_ uid: String, _ lines: [String]) -> String {
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VTODO", "UID:\(uid)",
              "DTSTAMP:20301101T080000Z", "LAST-MODIFIED:20301101T080000Z"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        }
        try await put(server, "boiler", task("boiler", ["SUMMARY:check the boiler", "DUE:20301203T090000Z", "RRULE:FREQ=DAILY;BYHOUR=9,17"]))
        try await put(server, "backup", task("backup", ["SUMMARY:back up the laptop", "DTSTART;VALUE=DATE:20301203", "RRULE:FREQ=WEEKLY"]))
        try await server.sync("a")
        let todos = try await server.todos("a")
        let boiler = try #require(todos.first { $0["text"] as? String == "check the boiler" }?["id"] as? String)
        #expect(todos.first { $0["text"] as? String == "back up the laptop" }?["repeat"] as? String == "FREQ=WEEKLY;X-TODO-KEPT=TRUE")
        let shown = try await server.todo(["show", String(boiler.prefix(8))], replica: "a")
        #expect(shown.out.contains("Repeat     rule kept from the server: FREQ=DAILY;BYHOUR=9,17"), "\(shown.out)")
        let done = try await server.todo(["done", String(boiler.prefix(8))], replica: "a")
        #expect(done.status == 0)
        #expect(done.err.contains("the app that wrote the rule makes the next"), "\(done.err)")
        #expect(!done.out.contains("Next"))
        try await server.sync("a")
        let stored = try server.stored()
        #expect(stored.count == 2, "no next occurrence made here: \(stored.keys)")
        let boilerText = try #require(stored["boiler.ics"])
        #expect(boilerText.contains("RRULE:FREQ=DAILY;BYHOUR=9,17") && boilerText.contains("STATUS:COMPLETED"))
        #expect(try #require(stored["backup.ics"]).contains("RRULE:FREQ=WEEKLY"), "a rule with no DUE is not mended away")
        // A person cannot type one.
        let typed = try await server.todo(["add", "tick", "--due", "tomorrow", "--repeat", "FREQ=HOURLY"], replica: "a")
        #expect(typed.status != 0 && typed.err.contains("is a rule todo does not follow"), "\(typed.err)")
    }
}

extension Radicale {
    /// Radicale, and python-caldav beside it.
    static var withPythonCaldav: Bool {
        installed && (try? runProgram(python, ["-c", "import caldav"]).status) == 0
    }
}
