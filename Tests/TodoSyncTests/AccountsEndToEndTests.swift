import Foundation
import TestSupport
import Testing

/// `todo sync` with account tokens through two `todo-server` processes on
/// one database: a shared account's replicas, each syncing through another
/// process, converge, and another account's replica never sees their todos.
/// (A replica remembers its server's URL: instances behind one proxy share it.)
struct AccountsEndToEndTests {
    @Test func replicasOfOneAccountConvergeThroughTwoServersAndAnotherAccountSeesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-accounts-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let alice = try await addTodoServerAccount("alice", database: database)
        let bob = try await addTodoServerAccount("bob", database: database)
        let servers = [try ServerProcess(["--port", "0", "--database", database]), try ServerProcess(["--port", "0", "--database", database])]
        defer { for server in servers { kill(server.process.processIdentifier, SIGTERM) } }
        let urls = ["http://127.0.0.1:\(try await servers[0].port())", "http://127.0.0.1:\(try await servers[1].port())"]
        let (laptop, phone, bobs) = (folder.appendingPathComponent("laptop.sqlite").path, folder.appendingPathComponent("phone.sqlite").path,
            folder.appendingPathComponent("bob.sqlite").path)

        /// `todo sync` of a replica through one server, with its account's token.
        func sync(_ replica: String, _ token: String, via server: Int) throws {
            let result = try todo(["sync", "--server", urls[server]], database: replica, environment: ["TODO_TOKEN": token])
            #expect(result.status == 0, "\(result.err)")
        }

        #expect(try todo(["add", "buy milk"], database: laptop).status == 0)
        #expect(try todo(["add", "bob's own"], database: bobs).status == 0)
        try sync(laptop, alice, via: 0)
        try sync(bobs, bob, via: 1)
        try sync(phone, alice, via: 1)
        #expect(try todo(["list"], database: phone).out.contains("buy milk"))
        #expect(!(try todo(["list"], database: phone).out.contains("bob's own")))

        let id = try #require(try todo(["list", "--json"], database: phone).out.split(separator: "\"").first { $0.count == 36 }.map(String.init))
        #expect(try todo(["done", id], database: phone).status == 0)
        #expect(try todo(["add", "call mom"], database: phone).status == 0)
        try sync(phone, alice, via: 1)
        try sync(laptop, alice, via: 0)
        try sync(bobs, bob, via: 1)

        let laptopList = try todo(["list", "--all"], database: laptop).out
        #expect(laptopList.contains("call mom") && laptopList.contains("buy milk"), "\(laptopList)")
        #expect(try todo(["list", "--done"], database: laptop).out.contains("buy milk"))
        #expect(!laptopList.contains("bob's own"))
        let bobsList = try todo(["list", "--all"], database: bobs).out
        #expect(bobsList.contains("bob's own") && !bobsList.contains("buy milk") && !bobsList.contains("call mom"), "\(bobsList)")

        // Alice's token cannot sync through as bob, nor a wrong one at all.
        let refused = try todo(["sync", "--server", urls[0]], database: folder.appendingPathComponent("x.sqlite").path, environment: ["TODO_TOKEN": "todo_wrong"])
        #expect(refused.status != 0)
    }

    /// `todo sync --token` once: later syncs need no token, it is kept in a
    /// file only the user can read, never in the database, never printed.
    @Test func aTokenGivenOnceIsRememberedForItsServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let token = try await addTodoServerAccount("alice", database: database)
        let server = try ServerProcess(["--port", "0", "--database", database])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())"
        let replica = folder.appendingPathComponent("laptop.sqlite").path
        #expect(try todo(["add", "buy milk"], database: replica).status == 0)
        let refused = try todo(["sync", "--server", url], database: replica)
        #expect(refused.status != 0)
        #expect(refused.err.contains("pass --token TOKEN (it is remembered for this server)"), "\(refused.err)")
        let first = try todo(["sync", "--server", url, "--token", token], database: replica)
        #expect(first.status == 0, "\(first.err)")
        #expect(try todo(["add", "call mom"], database: replica).status == 0)
        let again = try todo(["sync"], database: replica)
        #expect(again.status == 0, "\(again.err)")
        #expect(!(first.out + first.err + again.out + again.err).contains(token))
        let file = folder.appendingPathComponent("config/todo/credentials.json").path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        for path in [replica, replica + "-wal"] where FileManager.default.fileExists(atPath: path) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(token.utf8)) == nil, "the token is in \(path)")
        }
    }
}
