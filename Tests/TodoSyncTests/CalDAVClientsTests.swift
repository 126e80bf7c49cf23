import Foundation
import TestSupport
import Testing

/// todo-server's CalDAV with real clients: vdirsyncer (syncing a folder of
/// .ics files with the server) and todoman (reading and writing that
/// folder), both from PyPI in `.build/venv` (`.ci/run` installs them), beside
/// `todo sync` on the same account.
@Suite("CalDAV with vdirsyncer and todoman", .threadsOfTheirOwn)
struct CalDAVClientsTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = repository.appendingPathComponent(".build/venv/bin")
    /// todoman's executable is also called `todo`: always by its full path.
    static let todoman = venv.appendingPathComponent("todo")
    static let vdirsyncer = venv.appendingPathComponent("vdirsyncer")

    static var clientsInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: todoman.path) && FileManager.default.isExecutableFile(atPath: vdirsyncer.path)
    }

    /// A folder with a todo-server holding the account alice, vdirsyncer's
    /// and todoman's configuration, and a `todo` replica.
    struct Setup {
        let folder: URL
        let server: ServerProcess
        let url: String
        let token: String
        var replica: String { folder.appendingPathComponent("replica.sqlite").path }
        var vdir: URL { folder.appendingPathComponent("tasks") }

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-caldav-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("tasks"), withIntermediateDirectories: true)
            let database = folder.appendingPathComponent("server.sqlite").path
            let add = try ServerProcess(["user", "add", "alice", "--database", database])
            #expect(try await add.exitStatus() == 0)
            token = try #require(add.printed.split(separator: "\n").first { $0.hasPrefix("todo_") }.map(String.init))
            server = try ServerProcess(["--port", "0", "--database", database])
            url = "http://127.0.0.1:\(try await server.port())"
            try CalDAVClientsTests.vdirsyncerConfig(
                folder: folder, local: "\(folder.path)/tasks/", url: "\(url)/dav/alice/tasks/", collections: "null", password: token
            ).write(to: folder.appendingPathComponent("vdirsyncer.conf"), atomically: true, encoding: .utf8)
            try """
                path = "\(folder.path)/tasks"
                date_format = "%Y-%m-%d"
                time_format = "%H:%M"
                default_list = "tasks"
                cache_path = "\(folder.path)/todoman.cache"
                """.write(to: folder.appendingPathComponent("todoman.py"), atomically: true, encoding: .utf8)
        }

        func stop() {
            kill(server.process.processIdentifier, SIGTERM)
            try? FileManager.default.removeItem(at: folder)
        }

        @discardableResult
        func vdirsyncer(_ arguments: [String]) throws -> String {
            let result = try CalDAVClientsTests.run(CalDAVClientsTests.vdirsyncer, ["-c", folder.appendingPathComponent("vdirsyncer.conf").path] + arguments)
            #expect(result.status == 0, "vdirsyncer \(arguments): \(result.out)\(result.err)")
            return result.out + result.err
        }

        /// vdirsyncer's sync of the folder with the server, both ways.
        func syncFolder() throws {
            try vdirsyncer(["sync"])
        }

        @discardableResult
        func todoman(_ arguments: [String]) throws -> String {
            let result = try CalDAVClientsTests.run(
                CalDAVClientsTests.todoman, ["--config", folder.appendingPathComponent("todoman.py").path] + arguments
            )
            #expect(result.status == 0, "todoman \(arguments): \(result.out)\(result.err)")
            return result.out
        }

        /// todoman's tasks, as its porcelain output lists them.
        func todomanTasks() throws -> [[String: Any]] {
            let out = try todoman(["--porcelain", "list", "--status", "ANY"])
            return (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
        }

        @discardableResult
        func todoCommand(_ arguments: [String]) throws -> String {
            let result = try todo(arguments, database: replica)
            #expect(result.status == 0, "todo \(arguments): \(result.err)")
            return result.out
        }

        func sync() throws {
            try todoCommand(["sync", "--server", url, "--token", token])
        }
    }

    /// vdirsyncer's configuration: the folder `local` paired with the CalDAV
    /// list (or, with `collections = ["from b"]`, the lists found) at `url`.
    static func vdirsyncerConfig(folder: URL, local: String, url: String, collections: String, password: String) -> String {
        """
        [general]
        status_path = "\(folder.path)/status/"

        [pair tasks]
        a = "tasks_local"
        b = "tasks_remote"
        collections = \(collections)
        conflict_resolution = "b wins"

        [storage tasks_local]
        type = "filesystem"
        path = "\(local)"
        fileext = ".ics"

        [storage tasks_remote]
        type = "caldav"
        url = "\(url)"
        username = "alice"
        password = "\(password)"
        """
    }

    /// A Python client, in UTF-8 and UTC whatever the machine's locale.
    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let environment = ProcessInfo.processInfo.environment.merging(["LC_ALL": "C.UTF-8", "TZ": "UTC"]) { $1 }
        return try runProgram(executable, arguments, environment: environment)
    }

    @Test(.enabled(if: clientsInstalled, "vdirsyncer and todoman are not in .build/venv: bash .ci/run installs them"))
    func todosSyncBothWaysWithVdirsyncerAndTodoman() async throws {
        let setup = try await Setup()
        defer { setup.stop() }

        // Made with todo, synced: todoman lists it with its fields.
        try setup.todoCommand(["add", "buy milk", "--due", "2026-12-24", "--priority", "high", "--tag", "home"])
        try setup.sync()
        try setup.vdirsyncer(["discover"])
        try setup.syncFolder()
        var tasks = try setup.todomanTasks()
        let milk = try #require(tasks.first { $0["summary"] as? String == "buy milk" }, "\(tasks)")
        #expect(milk["priority"] as? Int == 1)
        #expect((milk["categories"] as? [String]) == ["home"])

        // Made and completed with todoman, synced by vdirsyncer: todo lists them after todo sync.
        try setup.todoman(["new", "call mom"])
        let milkID = try #require(milk["id"] as? Int)
        try setup.todoman(["done", String(milkID)])
        try setup.syncFolder()
        try setup.sync()
        #expect(try setup.todoCommand(["list"]).contains("call mom"))
        #expect(try setup.todoCommand(["list", "--done"]).contains("buy milk"))

        // todo's edit and todoman's reach each other.
        let momID = try #require(try setup.todoCommand(["list", "--json"]).components(separatedBy: "\"id\":\"").dropFirst().first?.prefix(36))
        try setup.todoCommand(["edit", String(momID), "call mom and dad"])
        try setup.sync()
        try setup.syncFolder()
        tasks = try setup.todomanTasks()
        let mom = try #require(tasks.first { $0["summary"] as? String == "call mom and dad" }, "\(tasks)")
        #expect(tasks.count == 2, "\(tasks)")

        // Edited with todoman, synced: todo shows the new priority and due date.
        try setup.todoman(["edit", String(try #require(mom["id"] as? Int)), "--priority", "high", "--due", "2026-12-31"])
        try setup.syncFolder()
        try setup.sync()
        let shown = try setup.todoCommand(["show", String(momID)])
        #expect(shown.contains("Priority   high") && shown.contains("2026-12-31"), "\(shown)")
    }

    @Test(.enabled(if: clientsInstalled, "vdirsyncer and todoman are not in .build/venv: bash .ci/run installs them"))
    func anotherAppsPropertiesSurviveAnEditThroughTodo() async throws {
        let setup = try await Setup()
        defer { setup.stop() }
        try setup.vdirsyncer(["discover"])
        // What another app wrote: its own property, an alarm, a folded line with an escaped comma.
        let unknown = [
            "X-APPLE-SORT-ORDER:734882001",
            "X-TASKS-ORG-ORDER;X-PARAM=\"a:b\":12",
            "RELATED-TO;RELTYPE=PARENT:parent@example.org",
        ]
        let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM"]
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Another App//EN", "BEGIN:VTODO", "UID:from-another-app@example.org",
                     "DTSTAMP:20261120T100000Z", "SUMMARY:water the plants\\, all of them", "STATUS:NEEDS-ACTION"]
            + unknown + alarm + ["END:VTODO", "END:VCALENDAR"]
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: setup.vdir.appendingPathComponent("from-another-app.ics"))
        try setup.syncFolder()
        try setup.sync()
        let listed = try setup.todoCommand(["list", "--json"])
        #expect(listed.contains("water the plants, all of them"), "\(listed)")
        let id = try #require(listed.components(separatedBy: "\"id\":\"").dropFirst().first?.prefix(36))
        try setup.todoCommand(["edit", String(id), "water the plants", "--priority", "low"])
        try setup.sync()
        try setup.syncFolder()
        let text = try String(contentsOf: setup.vdir.appendingPathComponent("from-another-app.ics"), encoding: .utf8)
        #expect(text.contains("SUMMARY:water the plants\r\n"), "\(text)")
        #expect(text.contains("PRIORITY:9\r\n"), "\(text)")
        for line in unknown + alarm {
            #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
        }
    }

    @Test(.enabled(if: clientsInstalled, "vdirsyncer and todoman are not in .build/venv: bash .ci/run installs them"))
    func aTodoEditedOnBothSidesEndsAsTheServerHasIt() async throws {
        let setup = try await Setup()
        defer { setup.stop() }
        try setup.todoCommand(["add", "pay rent"])
        try setup.sync()
        try setup.vdirsyncer(["discover"])
        try setup.syncFolder()
        let task = try #require(try setup.todomanTasks().first)
        // Both sides edit before either syncs: todoman the folder's copy, todo through the server.
        try setup.todoman(["edit", String(try #require(task["id"] as? Int)), "--priority", "low"])
        let id = try #require(try setup.todoCommand(["list", "--json"]).components(separatedBy: "\"id\":\"").dropFirst().first?.prefix(36))
        try setup.todoCommand(["edit", String(id), "pay rent today"])
        try setup.sync()
        // vdirsyncer's "b wins": the server's copy, with todo's edit, replaces the folder's.
        try setup.syncFolder()
        let tasks = try setup.todomanTasks()
        #expect(tasks.count == 1, "\(tasks)")
        #expect(tasks.first?["summary"] as? String == "pay rent today", "\(tasks)")
        try setup.sync()
        #expect(try setup.todoCommand(["list"]).contains("pay rent today"))
    }
}
