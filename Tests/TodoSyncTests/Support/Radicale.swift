import Foundation
import TestSupport
import Testing

/// Radicale (PyPI, in `.build/venv`, which `.ci/run` installs) on a free
/// port of 127.0.0.1, with the account alice (password `secret`), a task
/// list `tasks` and a calendar of events `events`, storing its collections
/// in a folder of the test's own; beside it, vdirsyncer and todoman set up
/// on that task list (a third client), and `todo` replicas.
final class Radicale: @unchecked Sendable {
    static let python = CalDAVClientsTests.venv.appendingPathComponent("python")

    static var installed: Bool {
        FileManager.default.isExecutableFile(atPath: python.path)
            && (try? runProgram(python, ["-c", "import radicale"]).status) == 0
            && CalDAVClientsTests.clientsInstalled
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-radicale-\(UUID().uuidString)")
    let port: Int
    private var process: Process?

    var origin: String { "http://127.0.0.1:\(port)" }
    var list: String { "caldav+\(origin)/alice/tasks/" }
    var storage: URL { folder.appendingPathComponent("collections") }
    /// The task list's folder in Radicale's storage.
    var listFolder: URL { storage.appendingPathComponent("collection-root/alice/tasks") }
    var environment: [String: String] {
        ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "TODO_PASSWORD": "secret", "TZ": "UTC"]
    }

    init() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("vdir/tasks"), withIntermediateDirectories: true)
        port = Int(try runProgram(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
        ]).out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 5232
        try "alice:secret\n".write(to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(folder.appendingPathComponent("users").path)
            htpasswd_encryption = plain
            [storage]
            filesystem_folder = \(storage.path)
            [logging]
            level = error
            """.write(to: folder.appendingPathComponent("radicale.conf"), atomically: true, encoding: .utf8)
        try """
            [general]
            status_path = "\(folder.path)/vdir-status/"

            [pair tasks]
            a = "tasks_local"
            b = "tasks_remote"
            collections = null
            conflict_resolution = "b wins"

            [storage tasks_local]
            type = "filesystem"
            path = "\(folder.path)/vdir/tasks/"
            fileext = ".ics"

            [storage tasks_remote]
            type = "caldav"
            url = "\(origin)/alice/tasks/"
            username = "alice"
            password = "secret"
            """.write(to: folder.appendingPathComponent("vdirsyncer.conf"), atomically: true, encoding: .utf8)
        try """
            path = "\(folder.path)/vdir/tasks"
            date_format = "%Y-%m-%d"
            time_format = "%H:%M"
            default_list = "tasks"
            cache_path = "\(folder.path)/todoman.cache"
            """.write(to: folder.appendingPathComponent("todoman.py"), atomically: true, encoding: .utf8)
    }

    /// Starts the server (again, after `stop`) and waits for it to answer.
    func start() async throws {
        let process = Process()
        process.executableURL = Self.python
        process.arguments = ["-m", "radicale", "--config", folder.appendingPathComponent("radicale.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        for _ in 0..<400 where (try? await curl(["\(origin)/"]).status) == "000" { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Makes the task list and the calendar of events.
    func makeCalendars() async throws {
        for (path, name, component) in [("tasks", "Errands", "VTODO"), ("events", "Birthdays", "VEVENT")] {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
                <D:displayname>\(name)</D:displayname>
                <C:supported-calendar-component-set><C:comp name="\(component)"/></C:supported-calendar-component-set>
                </D:prop></D:set></C:mkcalendar>
                """
            let made = try await curl(["-X", "MKCALENDAR", "-H", "Content-Type: application/xml", "--data-binary", body, "\(origin)/alice/\(path)/"])
            #expect(made.status == "201", "MKCALENDAR \(path): \(made.status)")
        }
    }

    /// Stops the server: SIGTERM, then SIGKILL if it is still there after
    /// five seconds. (Polled: Foundation's `waitUntilExit` spins here.)
    func stop() {
        guard let process else { return }
        self.process = nil
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// curl as alice: the status code, and the body.
    @discardableResult
    func curl(_ arguments: [String]) async throws -> (status: String, body: String) {
        let out = try await Self.offPool { try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-u", "alice:secret", "-w", "\n%{http_code}"] + arguments).out }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    /// The task list's objects as Radicale stores them, by file name.
    func stored() throws -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: listFolder.path)) ?? []
        var objects: [String: String] = [:]
        for name in names where name.hasSuffix(".ics") {
            objects[name] = try String(contentsOf: listFolder.appendingPathComponent(name), encoding: .utf8)
        }
        return objects
    }

    /// `todo` on a replica of this folder, with alice's password.
    func todo(_ arguments: [String], replica: String) async throws -> (status: Int32, out: String, err: String) {
        let (database, environment) = (folder.appendingPathComponent(replica + ".sqlite").path, environment)
        return try await Self.offPool { try TodoSyncTests.todo(arguments, database: database, environment: environment) }
    }

    /// Runs a program on a thread of its own: a test waiting for a process
    /// must not hold one of the two threads every suite's async work shares
    /// (in-process servers of other suites would miss their deadlines).
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// `todo sync` with the task list.
    @discardableResult
    func sync(_ replica: String, _ extra: [String] = []) async throws -> String {
        let result = try await todo(["sync", "--server", list, "--user", "alice"] + extra, replica: replica)
        #expect(result.status == 0, "todo sync (\(replica)): \(result.err)")
        return result.out
    }

    /// The replica's todos, as `todo export` writes them.
    func todos(_ replica: String) async throws -> [[String: Any]] {
        let out = try await todo(["export"], replica: replica).out
        return (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
    }

    @discardableResult
    func vdirsyncer(_ arguments: [String]) async throws -> String {
        let config = folder.appendingPathComponent("vdirsyncer.conf").path
        let result = try await Self.offPool { try CalDAVClientsTests.run(CalDAVClientsTests.vdirsyncer, ["-c", config] + arguments) }
        #expect(result.status == 0, "vdirsyncer \(arguments): \(result.out)\(result.err)")
        return result.out + result.err
    }

    @discardableResult
    func todoman(_ arguments: [String]) async throws -> String {
        let config = folder.appendingPathComponent("todoman.py").path
        let result = try await Self.offPool { try CalDAVClientsTests.run(CalDAVClientsTests.todoman, ["--config", config] + arguments) }
        #expect(result.status == 0, "todoman \(arguments): \(result.out)\(result.err)")
        return result.out
    }

    func todomanTasks() async throws -> [[String: Any]] {
        let out = try await todoman(["--porcelain", "list", "--status", "ANY"])
        return (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
    }
}
