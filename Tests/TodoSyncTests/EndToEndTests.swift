import Foundation
import TestSupport
import Testing

/// Runs a built binary (`todo` or `todo-server`) found beside the test bundle.
func builtBinary(_ name: String) -> URL? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return nil
}

/// `todo ARGS` on one database; returns status and output.
@discardableResult
func todo(_ arguments: [String], database: String, environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    guard let binary = builtBinary("todo") else { throw CocoaError(.fileNoSuchFile) }
    var env = ProcessInfo.processInfo.environment
    env["TODO_DATABASE"] = database
    env["TODO_SERVER"] = nil
    // Remembered tokens go beside the test's database, never into the real home.
    env["XDG_CONFIG_HOME"] = (database as NSString).deletingLastPathComponent + "/config"
    env.merge(environment) { $1 }
    return try runProgram(binary, arguments, environment: env)
}

/// Two `todo` binaries with their own databases sync through a `todo-server` process.
@Suite(.threadsOfTheirOwn)
struct EndToEndTests {
    /// The collection's URL, as Docs/server.md's curl examples write it, is
    /// taken for the server's; `https://` to a plain-HTTP server fails at
    /// once, in one line that says TLS failed and to use `http://`.
    @Test func aCollectionURLIsItsServerAndHTTPSToPlainHTTPSaysSo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-sync-urls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(["--port", "0", "--database", folder.appendingPathComponent("server.sqlite").path])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let port = try await server.port()
        let a = folder.appendingPathComponent("a.sqlite").path
        #expect(try todo(["add", "buy milk"], database: a).status == 0)
        let collection = try todo(["sync", "--server", "http://127.0.0.1:\(port)/todos"], database: a)
        #expect(collection.status == 0, "\(collection.err)")
        #expect(try todo(["status"], database: a).out.contains("http://127.0.0.1:\(port)"))
        #expect(!(try todo(["status"], database: a).out.contains("/todos")))
        let tls = try todo(["sync", "--server", "https://127.0.0.1:\(port)"], database: folder.appendingPathComponent("b.sqlite").path)
        #expect(tls.status != 0)
        #expect(tls.err.contains("TLS failed") && tls.err.contains("use http://"), "\(tls.err)")
        #expect(tls.err.split(separator: "\n").filter { !$0.hasPrefix("Created a new todo database") }.count == 1, "\(tls.err)")
        // Not retried: another try cannot help.
        #expect(!tls.err.contains("even after retrying"), "\(tls.err)")
    }

    @Test func twoTodoBinariesSyncThroughATodoServerProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-sync-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(["--port", "0", "--database", folder.appendingPathComponent("server.sqlite").path])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())"
        let a = folder.appendingPathComponent("a.sqlite").path
        let b = folder.appendingPathComponent("b.sqlite").path

        let noServer = try todo(["sync"], database: a)
        #expect(noServer.status != 0)
        #expect(noServer.err.contains("todo sync --server"))

        #expect(try todo(["add", "buy milk"], database: a).status == 0)
        #expect(try todo(["status"], database: a).out.contains("1 local change not yet synced"))
        let dry = try todo(["sync", "--server", url, "--dry-run"], database: a)
        #expect(dry.out.contains("push new"))
        #expect(dry.out.contains("Dry run"))
        let first = try todo(["sync", "--server", url], database: a)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("Synced: 0 pulled, 1 pushed"))

        let second = try todo(["sync"], database: b, environment: ["TODO_SERVER": url])
        #expect(second.status == 0, "\(second.err)")
        #expect(try todo(["list"], database: b).out.contains("buy milk"))

        let id = try #require(try todo(["list", "--json"], database: b).out.split(separator: "\"")
            .first { $0.count == 36 }.map(String.init))
        #expect(try todo(["done", id], database: b).status == 0)
        #expect(try todo(["sync"], database: b).status == 0) // the server is remembered
        #expect(try todo(["sync"], database: a).status == 0)
        #expect(try todo(["list", "--done"], database: a).out.contains("buy milk"))
        let status = try todo(["status"], database: a).out
        #expect(status.contains("0 local changes not yet synced"))
        #expect(status.contains("Server: \(url) (todo-server)"))
    }
}

/// The command line's own rules: help, usage errors, one sync at a time.
/// Each test gets a folder of its own, removed when the test ends.
@Suite(.threadsOfTheirOwn)
final class SyncCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-sync-cli-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func temporaryDatabase() -> String {
        folder.appendingPathComponent("todo-\(UUID().uuidString).sqlite").path
    }

    @Test func helpHasExamples() throws {
        let sync = try todo(["sync", "--help"], database: temporaryDatabase())
        for text in ["--server", "--token", "--prefer", "--dry-run", "--force", "Examples:"] {
            #expect(sync.out.contains(text), "\(text)")
        }
        #expect(try todo(["status", "--help"], database: temporaryDatabase()).out.contains("Examples:"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let database = temporaryDatabase()
        #expect(try todo(["sync", "--prefer", "mine"], database: database).status == 64)
        #expect(try todo(["sync", "--server-kind", "couchdb"], database: database).status == 64)
        let badURL = try todo(["sync", "--server", "localhost"], database: database)
        #expect(badURL.status != 0 && badURL.err.contains("not a server URL"))
    }

    @Test func otherCommandsNeverMentionSync() throws {
        let database = temporaryDatabase()
        let added = try todo(["add", "buy milk"], database: database)
        // (The line saying where the new database is names its path, which may hold any word.)
        let said = added.err.split(separator: "\n").filter { !$0.hasPrefix("Created a new todo database at ") }.joined()
        #expect(!(added.out + said).lowercased().contains("sync"))
        #expect(!(try todo(["list"], database: database).out.lowercased().contains("sync")))
    }

    @Test func aSecondSyncOnTheSameDatabaseRefusesClearly() throws {
        let database = temporaryDatabase()
        let descriptor = open(database + ".sync-lock", O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let second = try todo(["sync", "--server", "http://127.0.0.1:9"], database: database)
        #expect(second.status != 0)
        #expect(second.err.contains("another todo sync is running"))
    }
}
