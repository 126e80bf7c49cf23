import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// `todo sync --server caldav+…` against a real CalDAV server: Radicale,
/// with two `todo` replicas and a third client (vdirsyncer and todoman)
/// editing the same task list; a sync killed halfway; a server that stops,
/// and one that loses writes (its storage put back from a copy); repeating
/// todos completed here, there, and on both sides; another app's
/// properties; and every mistake a person can make, said in one line.
@Suite("todo sync with a CalDAV task list", .threadsOfTheirOwn, .serialized, .enabled(if: Radicale.installed, "Radicale, vdirsyncer and todoman are not in .build/venv: bash .ci/run installs them"))
struct CalDAVSyncTests {
    func radicale() async throws -> Radicale {
        let server = try Radicale()
        try await server.start()
        try await server.makeCalendars()
        return server
    }

    @Test func twoReplicasAndTodomanAgree() async throws {
        let server = try await radicale()
        #expect(try await server.todo(["add", "buy milk", "--tag", "errands", "--priority", "high"], replica: "a").status == 0)
        #expect(try await server.todo(["add", "call mom", "--due", "2026-12-24", "--note", "about the holidays"], replica: "a").status == 0)
        #expect(try await server.sync("a").contains("2 pushed"))
        // The third client: vdirsyncer brings the list to a folder, todoman reads and edits it.
        try await server.vdirsyncer(["discover"])
        try await server.vdirsyncer(["sync"])
        let seen = try await server.todomanTasks()
        #expect(Set(seen.compactMap { $0["summary"] as? String }) == ["buy milk", "call mom"])
        let milk = try #require(seen.first { $0["summary"] as? String == "buy milk" }?["id"] as? Int)
        try await server.todoman(["done", String(milk)])
        try await server.todoman(["new", "water the plants"])
        try await server.vdirsyncer(["sync"])

        #expect(try await server.sync("b").contains("3 pulled"))
        let b = try await server.todos("b")
        #expect(b.count == 3)
        #expect(b.first { $0["text"] as? String == "buy milk" }?["done"] as? Bool == true)
        #expect(b.first { $0["text"] as? String == "buy milk" }?["tags"] as? [String] == ["errands"])
        #expect(b.first { $0["text"] as? String == "call mom" }?["due"] as? String == "2026-12-24")
        #expect(b.first { $0["text"] as? String == "call mom" }?["note"] as? String == "about the holidays")

        // Edits on both replicas and a delete, then everyone syncs.
        let mom = try #require(b.first { $0["text"] as? String == "call mom" }?["id"] as? String)
        let plants = try #require(b.first { $0["text"] as? String == "water the plants" }?["id"] as? String)
        #expect(try await server.todo(["edit", String(mom.prefix(8)), "call mom and dad"], replica: "b").status == 0)
        try await server.sync("b")
        try await server.sync("a")
        #expect(try await server.todo(["rm", String(plants.prefix(8))], replica: "a").status == 0)
        #expect(try await server.todo(["edit", String(mom.prefix(8)), "--priority", "low"], replica: "a").status == 0)
        try await server.sync("a")
        try await server.sync("b")
        try await server.vdirsyncer(["sync"])

        let a = try await server.todos("a").map { "\($0["text"] ?? "") \($0["priority"] ?? "-")" }.sorted()
        #expect(a == ["buy milk high", "call mom and dad low"])
        #expect(try await server.todos("b").map { "\($0["text"] ?? "") \($0["priority"] ?? "-")" }.sorted() == a)
        #expect(try await server.todomanTasks().compactMap { $0["summary"] as? String }.sorted() == ["buy milk", "call mom and dad"])
        #expect(try server.stored().count == 2, "no copy, nothing left behind")
        // A sync with nothing to do sends nothing and changes nothing.
        #expect(try await server.sync("a").contains("0 pulled, 0 pushed"))
    }

    /// The project and the wait, scheduled and until dates travel between
    /// replicas; scheduled is DTSTART, which todoman reads and writes as a
    /// task's start.
    @Test func projectAndDatesTravelAndScheduledIsTodomansStart() async throws {
        let server = try await radicale()
        #expect(try await server.todo([
            "add", "prune roses", "--project", "home.garden", "--scheduled", "2026-12-03", "--wait", "2026-11-30",
            "--until", "2027-01-31",
        ], replica: "a").status == 0)
        try await server.sync("a")
        try await server.vdirsyncer(["discover"])
        try await server.vdirsyncer(["sync"])
        try await server.todoman(["new", "--start", "2026-12-05", "paint the fence"])
        try await server.vdirsyncer(["sync"])
        let roses = try #require(try await server.todomanTasks().first { $0["summary"] as? String == "prune roses" })
        #expect(roses["start"] != nil && !(roses["start"] is NSNull), "todoman reads DTSTART: \(roses)")

        try await server.sync("b")
        let b = try await server.todos("b")
        let pulled = try #require(b.first { $0["text"] as? String == "prune roses" })
        #expect(pulled["project"] as? String == "home.garden")
        #expect(pulled["scheduled"] as? String == "2026-12-03")
        #expect(pulled["wait"] as? String == "2026-11-30")
        #expect(pulled["until"] as? String == "2027-01-31")
        let fence = try #require(b.first { $0["text"] as? String == "paint the fence" })
        #expect((fence["scheduled"] as? String)?.hasPrefix("2026-12-0") == true, "todoman's start: \(fence)")

        // An edit of one field on b reaches a; the others stay.
        let id = try #require(pulled["id"] as? String)
        #expect(try await server.todo(["edit", String(id.prefix(8)), "--project", "home", "--wait", "none"], replica: "b").status == 0)
        try await server.sync("b")
        try await server.sync("a")
        let onA = try #require(try await server.todos("a").first { $0["text"] as? String == "prune roses" })
        #expect(onA["project"] as? String == "home")
        #expect(onA["wait"] is NSNull)
        #expect(onA["scheduled"] as? String == "2026-12-03")
        #expect(try server.stored().count == 2)
    }

    /// A started todo is IN-PROCESS for every CalDAV app, with when it was
    /// started in X-TODO-START; a task another app set IN-PROCESS is started
    /// here, and one it set back to NEEDS-ACTION is stopped.
    @Test func aStartedTodoIsInProcessEverywhere() async throws {
        let server = try await radicale()
        #expect(try await server.todo(["add", "write the report"], replica: "a").status == 0)
        let id = try #require(try await server.todos("a").first?["id"] as? String)
        #expect(try await server.todo(["start", String(id.prefix(8))], replica: "a").status == 0)
        try await server.sync("a")
        let stored = try #require(try server.stored().values.first)
        #expect(stored.contains("STATUS:IN-PROCESS") && stored.contains("X-TODO-START:"), "\(stored)")
        try await server.vdirsyncer(["discover"])
        try await server.vdirsyncer(["sync"])
        let seen = try #require(try await server.todomanTasks().first)
        #expect(seen["completed"] as? Bool == false, "todoman: \(seen)")

        try await server.sync("b")
        let started = try await server.todos("a").first?["start"] as? String
        let onB = try await server.todos("b").first?["start"] as? String
        #expect(started != nil && onB == started)

        // Stopped on b: NEEDS-ACTION, and a reads it stopped.
        #expect(try await server.todo(["stop", String(id.prefix(8))], replica: "b").status == 0)
        try await server.sync("b")
        let stopped = try #require(try server.stored().values.first)
        #expect(stopped.contains("STATUS:NEEDS-ACTION") && !stopped.contains("X-TODO-START"), "\(stopped)")
        try await server.sync("a")
        #expect(try await server.todos("a").first?["start"] is NSNull)

        // A phone's task in process, with no start of ours: started when it last changed.
        let object = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-task-2@example.org",
            "DTSTAMP:20261120T100000Z", "LAST-MODIFIED:20261120T100000Z", "SUMMARY:call the plumber", "STATUS:IN-PROCESS",
            "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        let url = server.origin + "/alice/tasks/phone-task-2.ics"
        #expect(try await server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", object, url]).status == "201")
        try await server.sync("a")
        let plumber = try #require(try await server.todos("a").first { $0["text"] as? String == "call the plumber" })
        #expect(plumber["start"] as? String == "2026-11-20T10:00:00.000Z")
        #expect(try await server.todo(["list"], replica: "a").out.contains("[*]"))
    }

    /// What another app wrote into a task (its own X- properties, an alarm,
    /// a parent, a category that is no tag) survives an edit through `todo`.
    @Test func anotherAppsPropertiesSurviveAnEdit() async throws {
        let server = try await radicale()
        let object = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-task-1@example.org",
            "DTSTAMP:20261120T100000Z", "LAST-MODIFIED:20261120T100000Z", "SUMMARY:renew passport",
            "CATEGORIES:Work Stuff,errands", "X-APPLE-SORT-ORDER:42", "RELATED-TO;RELTYPE=PARENT:trip@example.org",
            "X-PHONE-COLOR;X-SHADE=dark:#ff0000", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:passport",
            "TRIGGER:-PT30M", "END:VALARM", "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        let url = server.origin + "/alice/tasks/phone-task-1.ics"
        #expect(try await server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", object, url]).status == "201")
        let before = try await server.curl([url]).body
        try await server.sync("a")
        let todo = try #require(try await server.todos("a").first)
        #expect(todo["text"] as? String == "renew passport")
        #expect(todo["tags"] as? [String] == ["errands"])
        let id = try #require(todo["id"] as? String)
        #expect(try await server.todo(["edit", String(id.prefix(8)), "renew passport before May", "--tag", "travel"], replica: "a").status == 0)
        #expect(try await server.sync("a").contains("1 pushed"))
        let after = try await server.curl([url]).body
        #expect(after.contains("SUMMARY:renew passport before May"))
        let unmapped = before.split(separator: "\r\n").filter { line in
            !["SUMMARY", "CATEGORIES", "DTSTAMP", "LAST-MODIFIED"].contains { line.hasPrefix($0) }
        }
        for line in unmapped {
            #expect(after.contains(line), "lost \(line):\n\(after)")
        }
        #expect(after.contains("Work Stuff"), "a category that is no tag is kept:\n\(after)")
        #expect(after.contains("travel"))
    }

    /// A sync killed while it pushes 400 todos, then run again: every todo
    /// once on the server, none twice, none lost.
    @Test func aKilledSyncLosesAndDoublesNothing() async throws {
        let server = try await radicale()
        let items = (0..<400).map { number in
            #"{"id":"\#(UUID().uuidString.lowercased())","text":"todo \#(number)","createdAt":"2026-11-20T10:00:00.000Z"}"#
        }
        let file = server.folder.appendingPathComponent("many.json")
        try ("[\n" + items.joined(separator: ",\n") + "\n]\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try await server.todo(["import", file.path], replica: "a").status == 0)
        let sync = Process()
        sync.executableURL = builtBinary("todo")
        sync.arguments = ["sync", "--server", server.list, "--user", "alice", "--database", server.folder.appendingPathComponent("a.sqlite").path]
        sync.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        sync.standardOutput = FileHandle.nullDevice
        sync.standardError = FileHandle.nullDevice
        try sync.run()
        for _ in 0..<600 where (try server.stored().count) < 60 && sync.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        kill(sync.processIdentifier, SIGKILL)
        while sync.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        let halfway = try server.stored().count
        #expect(halfway < 400, "killed before the end (\(halfway) stored)")
        try await server.sync("a")
        try await server.sync("b")
        #expect(try server.stored().count == 400)
        #expect(try await server.todos("b").count == 400)
        #expect(Set(try await server.todos("b").compactMap { $0["text"] as? String }).count == 400)
    }

    /// A server that is away, then one that comes back having lost the writes
    /// of the last sync (its storage put back from a copy, sync tokens and
    /// all): nothing is lost, nothing doubled.
    @Test func aStoppedServerAndLostWritesLoseNothing() async throws {
        let server = try await radicale()
        #expect(try await server.todo(["add", "first"], replica: "a").status == 0)
        try await server.sync("a")
        server.stop()
        #expect(try await server.todo(["add", "while away"], replica: "a").status == 0)
        let away = try await server.todo(["sync"], replica: "a")
        #expect(away.status == 69, "\(away.err)")
        #expect(away.err.contains("connection refused"), "\(away.err)")
        #expect(away.err.split(separator: "\n").count == 1)
        try await server.start()
        #expect(try await server.sync("a").contains("1 pushed"))

        // A copy of the storage, then two more todos and an edit reach the server...
        let copy = server.folder.appendingPathComponent("backup")
        try FileManager.default.copyItem(at: server.storage, to: copy)
        let first = try #require(try await server.todos("a").first { $0["text"] as? String == "first" }?["id"] as? String)
        #expect(try await server.todo(["add", "late one"], replica: "a").status == 0)
        #expect(try await server.todo(["add", "late two"], replica: "a").status == 0)
        #expect(try await server.todo(["edit", String(first.prefix(8)), "first, edited"], replica: "a").status == 0)
        #expect(try await server.sync("a").contains("3 pushed"))
        // ...and the server comes back from the copy, without them.
        server.stop()
        try FileManager.default.removeItem(at: server.storage)
        try FileManager.default.moveItem(at: copy, to: server.storage)
        try await server.start()
        #expect(try server.stored().count == 2)
        try await server.sync("a")
        try await server.sync("b")
        let texts = try await server.todos("b").compactMap { $0["text"] as? String }.sorted()
        #expect(texts == ["first, edited", "late one", "late two", "while away"])
        #expect(try server.stored().count == 4)
    }

    /// A repeating todo completed the way task apps do it (its DUE moved on,
    /// on the same UID), completed here (a next occurrence of its own), and
    /// completed on both sides before one sync: one next occurrence each time,
    /// for a plain rule and for rules with weekdays and an ordinal weekday.
    /// The four due dates: the first, the phone's, ours, and the last.
    @Test(arguments: [
        ("weekly", ["2030-12-03", "2030-12-10", "2030-12-17", "2030-12-24"]),
        ("weekdays", ["2030-12-05", "2030-12-06", "2030-12-09", "2030-12-10"]),
        ("monthly on the last friday", ["2030-11-29", "2030-12-27", "2031-01-31", "2031-02-28"]),
    ])
    func repeatingTodosEndWithOneNextOccurrence(rule: String, dues: [String]) async throws {
        let server = try await radicale()
        let compact = dues.map { $0.replacingOccurrences(of: "-", with: "") }
        #expect(try await server.todo(["add", "water the plants", "--due", dues[0], "--repeat", rule], replica: "a").status == 0)
        try await server.sync("a")
        func pending() async throws -> [[String: Any]] {
            try await server.todos("a").filter { $0["text"] as? String == "water the plants" && $0["done"] as? Bool == false }
        }
        /// The phone completes it: DUE moved a week on, in place.
        func phoneCompletes(_ id: String, from: String, to: String) async throws {
            let url = server.origin + "/alice/tasks/\(id).ics"
            let (status, body) = try await server.curl(["-i", url])
            #expect(status == "200")
            let etag = try #require(body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5)
                .trimmingCharacters(in: .whitespaces))
            let text = try #require(body.components(separatedBy: "\r\n\r\n").dropFirst().first)
            #expect(text.contains("DUE;VALUE=DATE:\(from)"))
            let moved = text.replacingOccurrences(of: "DUE;VALUE=DATE:\(from)", with: "DUE;VALUE=DATE:\(to)")
                .replacingOccurrences(of: "LAST-MODIFIED:", with: "X-WAS-MODIFIED:")
                .replacingOccurrences(of: "END:VTODO", with: "LAST-MODIFIED:\(ISO8601.compactNow)\r\nEND:VTODO")
            let put = try await server.curl(["-X", "PUT", "-H", "If-Match: \(etag)", "-H", "Content-Type: text/calendar", "--data-binary", moved, url])
            #expect(put.status == "204" || put.status == "201", "PUT: \(put)")
        }
        // There.
        let first = try #require(try await pending().first?["id"] as? String)
        try await phoneCompletes(first, from: compact[0], to: compact[1])
        try await server.sync("a")
        #expect(try await pending().map { $0["due"] as? String } == [dues[1]])
        // Here.
        #expect(try await server.todo(["done", String(first.prefix(8))], replica: "a").status == 0)
        try await server.sync("a")
        let next = try await pending()
        #expect(next.map { $0["due"] as? String } == [dues[2]])
        try await server.sync("b")
        #expect(try await server.todos("b").filter { $0["done"] as? Bool == false }.count == 1)
        // Both, before one sync.
        let second = try #require(next.first?["id"] as? String)
        try await phoneCompletes(second, from: compact[2], to: compact[3])
        #expect(try await server.todo(["done", String(second.prefix(8))], replica: "a").status == 0)
        try await server.sync("a")
        try await server.sync("b")
        for replica in ["a", "b"] {
            let open = try await server.todos(replica).filter { $0["done"] as? Bool == false }
            #expect(open.map { $0["due"] as? String } == [dues[3]], "\(replica): \(open)")
        }
        let onServer = try server.stored().values.filter { !$0.contains("STATUS:COMPLETED") }
        #expect(onServer.count == 1, "one open occurrence on the server: \(onServer)")
    }

    @Test func mistakesSayWhatToDo() async throws {
        let server = try await radicale()
        // The database first: its "Created a new todo database" line is not a mistake's.
        #expect(try TodoSyncTests.todo(["add", "here only"], database: server.folder.appendingPathComponent("m.sqlite").path).status == 0)
        func refused(_ arguments: [String], _ environment: [String: String] = [:], says: String) async throws {
            let (database, merged) = (server.folder.appendingPathComponent("m.sqlite").path, server.environment.merging(environment) { $1 })
            let result = try await Radicale.offPool { try TodoSyncTests.todo(arguments, database: database, environment: merged) }
            #expect(result.status != 0, "\(arguments)")
            #expect(result.err.contains(says), "\(arguments): \(result.err)")
            #expect(result.err.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(result.err)")
        }
        try await refused(["sync", "--server", server.list, "--user", "alice"], ["TODO_PASSWORD": "wrong"], says: "refused the name alice")
        try await refused(["sync", "--server", "caldav+\(server.origin)/alice/events/", "--user", "alice"], says: "is not a task list")
        try await refused(["sync", "--server", "caldav+\(server.origin)/alice/nothing/", "--user", "alice"], says: "is not a task list")
        try await refused(["sync", "--server", server.list], ["XDG_CONFIG_HOME": server.folder.appendingPathComponent("empty").path], says: "add --user NAME")
        try await refused(["sync", "--server", server.list, "--token", "x"], says: "--token is for JSON servers")
        try await refused(["sync", "--server", "caldav+ftp://example.org/tasks/", "--user", "alice"], says: "not a server URL")
        try await refused(["sync", "--server", "caldav+http://127.0.0.1:9/tasks/", "--user", "alice"], says: "connection refused")
        let web = try ServerProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", PagingEndToEndTests.script.path, "--port", "0"])
        defer { kill(web.process.processIdentifier, SIGTERM) }
        try await refused(["sync", "--server", "caldav+http://127.0.0.1:\(try await web.port())/todos/", "--user", "alice"], says: "not a CalDAV server")
        // Nothing was written by any of them.
        #expect(try server.stored().isEmpty)
        // A database that syncs with the list remembers it: a JSON server's --token is refused there too.
        try await server.sync("a")
        let token = try await server.todo(["sync", "--token", "x"], replica: "a")
        #expect(token.status != 0)
        #expect(token.err.contains("--token is not for caldav+"), "\(token.err)")
    }

    /// A multistatus with a DOCTYPE (an entity naming a file, say) is refused before anything in it is read.
    @Test func anAnswerWithADoctypeIsRefusedUnread() {
        let body = #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            + #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>"#
        #expect(throws: SyncError.self) { try MultistatusAnswer(Array(body.utf8), base: "http://127.0.0.1/tasks/", request: "REPORT") }
    }
}

extension ISO8601 {
    /// Now, as iCalendar writes a UTC time.
    static var compactNow: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date().addingTimeInterval(2))
    }
}
