import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// Tasks linked by the UIDs apps give them, not UUIDs: numeric ones an
/// Android app writes, Apple's upper-case UUIDs, `something@host` from mail
/// clients, a parent that names its subtask (CHILD). On Radicale, through
/// `todo sync`: every link arrives as a link between todos, and a link
/// `todo` writes names the task by the UID the other apps know.
@Suite(.threadsOfTheirOwn, .enabled(if: Radicale.installed, "Radicale is not in .build/venv: bash .ci/run installs it"))
struct CalDAVUIDsTests {
    static let apple = "8C5A0F27-5B7E-4B6A-9E0B-1D2C3B4A5F60"

    static func object(_ uid: String, _ summary: String, _ lines: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Some App//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T100000Z",
          "LAST-MODIFIED:20261120T100000Z", "SUMMARY:\(summary)"] + lines + ["END:VTODO", "END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static let tasks: [(name: String, text: String)] = [
        ("1001.ics", object("1001", "Trip")),
        ("1002.ics", object("1002", "Pack bags", ["RELATED-TO;RELTYPE=PARENT:1001"])),
        ("apple-random-name.ics", object(apple, "Book hotel", ["RELATED-TO:1001"])),
        ("passport.ics", object("task-77@mail.example.org", "Renew passport", ["RELATED-TO;RELTYPE=DEPENDS-ON:1002"])),
        ("groceries.ics", object("list-5@host", "Groceries", ["RELATED-TO;RELTYPE=CHILD:item-6@host"])),
        ("item-6.ics", object("item-6@host", "Milk")),
    ]

    static func byText(_ todos: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(todos.compactMap { todo in (todo["text"] as? String).map { ($0, todo) } }, uniquingKeysWith: { first, _ in first })
    }

    @Test func linksByAppsUIDsArriveAndLinksWrittenNameThem() async throws {
        let server = try Radicale()
        try await server.start()
        try await server.makeCalendars()
        let list = server.origin + "/alice/tasks/"
        for (name, text) in Self.tasks {
            let put = try await server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", text, list + name])
            #expect(put.status == "201", "\(name): \(put.body)")
        }
        try await server.sync("a")
        var a = Self.byText(try await server.todos("a"))
        let trip = try #require(a["Trip"]?["id"] as? String)
        let pack = try #require(a["Pack bags"]?["id"] as? String)
        let hotel = try #require(a["Book hotel"]?["id"] as? String)
        let groceries = try #require(a["Groceries"]?["id"] as? String)
        #expect(hotel == Self.apple.lowercased(), "an upper-case UUID is the todo's id")
        #expect(a["Pack bags"]?["parent"] as? String == trip, "a numeric UID's subtask: \(a["Pack bags"] ?? [:])")
        #expect(a["Book hotel"]?["parent"] as? String == trip, "RELATED-TO without RELTYPE is a parent")
        #expect(a["Renew passport"]?["blockedBy"] as? [String] == [pack], "DEPENDS-ON by a numeric UID")
        #expect(a["Milk"]?["parent"] as? String == groceries, "a parent's CHILD gives the subtask its parent")

        // A second replica, syncing for the first time, reads the same links.
        try await server.sync("b")
        let b = Self.byText(try await server.todos("b"))
        for text in ["Pack bags", "Book hotel", "Renew passport", "Milk"] {
            #expect(b[text]?["parent"] as? String == a[text]?["parent"] as? String, "\(text)")
            #expect(b[text]?["blockedBy"] as? [String] == a[text]?["blockedBy"] as? [String], "\(text)")
        }
        // Nothing to do on a sync after that: resolved links are no change.
        let again = try await server.sync("a")
        #expect(again.contains("0 pushed") || !again.contains("pushed"), "\(again)")

        // Links todo writes name the tasks as the apps know them.
        let passport = try #require(a["Renew passport"]?["id"] as? String)
        #expect(try await server.todo(["edit", passport, "--parent", groceries], replica: "a").status == 0)
        #expect(try await server.todo(["edit", pack, "--parent", hotel], replica: "a").status == 0)
        #expect(try await server.todo(["add", "Buy adapter", "--parent", trip, "--blocked-by", pack], replica: "a").status == 0)
        try await server.sync("a")
        let stored = try server.stored()
        let passportText = try #require(stored["passport.ics"])
        #expect(passportText.contains("RELATED-TO;RELTYPE=PARENT:list-5@host"), "\(passportText)")
        #expect(passportText.contains("RELATED-TO;RELTYPE=DEPENDS-ON:1002"), "another app's line stays: \(passportText)")
        let packText = try #require(stored["1002.ics"])
        #expect(packText.contains("RELATED-TO;RELTYPE=PARENT:\(Self.apple)"), "Apple's UID as Apple wrote it: \(packText)")
        #expect(!packText.contains(":1001\r\n"), "the old parent's line is gone: \(packText)")
        let adapter = try #require(stored.values.first { $0.contains("SUMMARY:Buy adapter") })
        #expect(adapter.contains("RELATED-TO;RELTYPE=PARENT:1001") && adapter.contains("RELATED-TO;RELTYPE=DEPENDS-ON:1002"), "\(adapter)")

        // And read back on the other replica, the links are the same todos.
        try await server.sync("b")
        let after = Self.byText(try await server.todos("b"))
        #expect(after["Renew passport"]?["parent"] as? String == groceries)
        #expect(after["Pack bags"]?["parent"] as? String == hotel)
        #expect(after["Buy adapter"]?["parent"] as? String == trip)
        #expect(after["Buy adapter"]?["blockedBy"] as? [String] == [pack])
        a = Self.byText(try await server.todos("a"))
        #expect(a["Pack bags"]?["parent"] as? String == hotel)

        // A link to a task named by its own UID, removed here, goes from the server, and stays gone.
        let adapterID = try #require(after["Buy adapter"]?["id"] as? String)
        #expect(try await server.todo(["edit", passport, "--parent", "none"], replica: "b").status == 0)
        #expect(try await server.todo(["edit", adapterID, "--unblock", pack], replica: "b").status == 0)
        try await server.sync("b")
        let removed = try server.stored()
        #expect(!(removed["passport.ics"] ?? "").contains("PARENT:list-5@host"), "\(removed["passport.ics"] ?? "")")
        #expect((removed["passport.ics"] ?? "").contains("RELATED-TO;RELTYPE=DEPENDS-ON:1002"), "the blocker it still has")
        let adapterText = try #require(removed.values.first { $0.contains("SUMMARY:Buy adapter") })
        #expect(!adapterText.contains("DEPENDS-ON:1002") && adapterText.contains("RELATED-TO;RELTYPE=PARENT:1001"), "\(adapterText)")
        try await server.sync("a")
        try await server.sync("b")
        for replica in ["a", "b"] {
            let now = Self.byText(try await server.todos(replica))
            #expect(now["Renew passport"]?["parent"] is NSNull, "\(replica): \(now["Renew passport"] ?? [:])")
            #expect(now["Buy adapter"]?["blockedBy"] as? [String] == [], "\(replica)")
        }
    }

    /// A floating time an Android app wrote is the user's own wall time,
    /// and a DTSTART with a TZID stays as written through an edit of
    /// another field (issue 42, item 6): read in Tokyo, noon is 03:00 UTC.
    @Test func aFloatingTimeIsTheUsersWallTimeAndATzidStaysAsWritten() async throws {
        let server = try Radicale()
        try await server.start()
        try await server.makeCalendars()
        let url = server.origin + "/alice/tasks/float.ics"
        let text = Self.object("float-1", "Call the bank", ["DUE:20261201T120000", "DTSTART;TZID=Europe/Berlin:20261130T090000"])
        #expect(try await server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", text, url]).status == "201")
        let database = server.folder.appendingPathComponent("tokyo.sqlite").path
        let environment = server.environment.merging(["TZ": "Asia/Tokyo"]) { $1 }
        func run(_ arguments: [String]) async throws -> String {
            let result = try await Radicale.offPool { try todo(arguments, database: database, environment: environment) }
            #expect(result.status == 0, "todo \(arguments): \(result.err)")
            return result.out
        }
        _ = try await run(["sync", "--server", server.list, "--user", "alice"])
        let exported = try JSONSerialization.jsonObject(with: Data(try await run(["export"]).utf8)) as? [[String: Any]] ?? []
        let task = try #require(exported.first { $0["text"] as? String == "Call the bank" })
        #expect(task["due"] as? String == "2026-12-01T03:00:00.000Z", "\(task)")
        #expect(task["scheduled"] as? String == "2026-11-30T08:00:00.000Z", "\(task)")
        _ = try await run(["edit", try #require(task["id"] as? String), "Call the bank about the card"])
        _ = try await run(["sync", "--server", server.list, "--user", "alice"])
        let stored = try #require(try server.stored()["float.ics"])
        #expect(stored.contains("SUMMARY:Call the bank about the card"), "\(stored)")
        #expect(stored.contains("DUE:20261201T120000\r\n") && stored.contains("DTSTART;TZID=Europe/Berlin:20261130T090000\r\n"), "\(stored)")
    }

    /// The resolution alone, pure: own links first, CHILD only for a subtask
    /// naming no parent, a UID recorded by a base, a UID nobody has ignored.
    @Test func relationsResolveThroughTheListsUIDs() {
        let (p, c, d, old) = (UUID(), UUID(), UUID(), UUID())
        func item(_ uid: String?, _ relations: [RemoteRelation], parent: UUID? = nil) -> RemoteTodo {
            var item = RemoteTodo(id: uid ?? "x", fields: SyncFields(text: uid ?? "x", isDone: false, plan: TodoPlan(parent: parent)), uid: uid)
            item.relations = relations
            return item
        }
        let items: [UUID: RemoteTodo] = [
            p: item("p@host", [RemoteRelation(.child, "c@host"), RemoteRelation(.child, "d@host")]),
            c: item("c@host", [RemoteRelation(.dependsOn, "old"), RemoteRelation(.dependsOn, "nobody")]),
            d: item("d@host", [RemoteRelation(.parent, "old")]),
        ]
        let resolved = RemoteRelations.resolve(items, known: ["old": old])
        #expect(resolved[c]?.fields.parent == p)
        #expect(resolved[c]?.fields.blockedBy == [old])
        #expect(resolved[d]?.fields.parent == old, "its own PARENT wins over another's CHILD")
        #expect(resolved[p] == nil, "unchanged")
        #expect(RemoteRelations.resolve([p: item("p", [])], known: [:]).isEmpty)
    }
}
