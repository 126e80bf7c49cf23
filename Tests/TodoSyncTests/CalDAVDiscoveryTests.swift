import Foundation
import TestSupport
import Testing
@testable import TodoSync

/// `todo sync --caldav-lists`: an account's task lists found the way CalDAV
/// clients find them, on real servers: todo-server with accounts, and
/// Radicale (PyPI, in `.build/venv`, which `.ci/run` installs) holding a task
/// list and a calendar of events; refused names and passwords, a server that
/// is no CalDAV server, and the login remembered in a file only the user reads.
@Suite("todo sync --caldav-lists", .threadsOfTheirOwn)
struct CalDAVDiscoveryTests {
    /// A folder for a test's replica and config, removed after.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("todo-lists-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        var environment: [String: String] { ["XDG_CONFIG_HOME": url.appendingPathComponent("config").path] }
        var credentials: String { url.appendingPathComponent("config/todo/credentials.json").path }

        func lists(_ arguments: [String], password: String? = nil) throws -> (status: Int32, out: String, err: String) {
            var environment = self.environment
            if let password { environment["TODO_PASSWORD"] = password }
            return try todo(["sync", "--caldav-lists"] + arguments, database: url.appendingPathComponent("replica.sqlite").path, environment: environment)
        }
    }

    @Test func todoServerListsTheAccountsTaskListAndRemembersTheLogin() async throws {
        let folder = try Folder()
        let database = folder.url.appendingPathComponent("server.sqlite").path
        let token = try await addTodoServerAccount("alice", database: database)
        let server = try ServerProcess(["--port", "0", "--database", database])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let origin = "http://127.0.0.1:\(try await server.port())"

        let found = try folder.lists([origin + "/", "--user", "alice"], password: token)
        #expect(found.status == 0, "\(found.err)")
        #expect(found.out == "Task lists of alice at \(origin):\n  Tasks  caldav+\(origin)/dav/alice/tasks/\n", "\(found.out)")
        #expect(!found.out.contains(token) && !found.err.contains(token))

        // Remembered for the server, readable by the user alone: no password or name needed again.
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.credentials)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: folder.credentials, encoding: .utf8).contains(token))
        let again = try folder.lists(["caldav+" + origin + "/dav/"])
        #expect(again.out == found.out, "\(again.err)")

        let refused = try folder.lists([origin, "--user", "alice"], password: "todo_wrong")
        #expect(refused.status != 0)
        #expect(refused.err.contains("refused the name alice and its password (401)"), "\(refused.err)")
        #expect(refused.err.split(separator: "\n").count == 1)
    }

    @Test(.enabled(if: Radicale.installed, "Radicale is not in .build/venv: bash .ci/run installs it"))
    func radicaleListsTasksApartFromEvents() async throws {
        let folder = try Folder()
        let radicale = try Radicale()
        try await radicale.start()
        try await radicale.makeCalendars()
        let origin = radicale.origin
        let found = try folder.lists([origin + "/", "--user", "alice"], password: "secret")
        #expect(found.status == 0, "\(found.err)")
        #expect(found.out == """
            Task lists of alice at \(origin):
              Errands  caldav+\(origin)/alice/tasks/
            Calendars of events only, not task lists: Birthdays

            """, "\(found.out)")
        let refused = try folder.lists([origin + "/", "--user", "alice"], password: "wrong")
        #expect(refused.status != 0)
        #expect(refused.err.contains("refused the name alice"), "\(refused.err)")
    }

    @Test func anAddressThatIsNoCalDAVServerSaysSo() async throws {
        let folder = try Folder()
        let server = try ServerProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", PagingEndToEndTests.script.path, "--port", "0"])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())/"
        let answer = try folder.lists([url, "--user", "alice"], password: "x")
        #expect(answer.status != 0)
        #expect(answer.err.contains("is not a CalDAV server's address"), "\(answer.err)")

        let nobody = try folder.lists(["http://127.0.0.1:9/", "--user", "alice"], password: "x")
        #expect(nobody.status != 0)
        #expect(nobody.err.contains("connection refused"), "\(nobody.err)")

        let usage = try folder.lists(["ftp://example.org/"], password: "x")
        #expect(usage.status != 0)
        #expect(usage.err.contains("is not a server URL"), "\(usage.err)")
    }

    /// A server's answer is read with no DTD: a DOCTYPE (an entity naming a
    /// file, say) is refused before anything in it is read.
    @Test func anAnswerWithADoctypeIsRefusedUnread() {
        let body = #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            + #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>"#
        #expect(throws: SyncError.self) { try CalDAVDiscovery.properties(in: Array(body.utf8), base: URL(string: "http://127.0.0.1/")!) }
        let plain = #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a/</d:href></d:response></d:multistatus>"#
        #expect((try? CalDAVDiscovery.properties(in: Array(plain.utf8), base: URL(string: "http://127.0.0.1/")!))?.first?.url.path == "/a")
    }
}
