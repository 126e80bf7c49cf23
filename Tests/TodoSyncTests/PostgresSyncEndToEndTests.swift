import Foundation
import TestSupport
import Testing

/// `todo sync` through two `todo-server` instances on one PostgreSQL
/// database, the syncs going to one instance and the other in turn, each
/// replica through its own (a replica remembers its server's URL: instances
/// behind one proxy share it): replicas of one account converge, and each
/// account sees only its own todos.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PostgresSyncEndToEndTests {
    @Test func replicasSyncingThroughTwoInstancesAlternatelyConvergePerAccount() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-pg-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await PostgresCluster.shared().makeDatabase()
        let alice = try await addTodoServerAccount("alice", database: database)
        let bob = try await addTodoServerAccount("bob", database: database)
        let servers = [try ServerProcess(["--port", "0", "--database", database]), try ServerProcess(["--port", "0", "--database", database])]
        defer { for server in servers { kill(server.process.processIdentifier, SIGTERM) } }
        let urls = ["http://127.0.0.1:\(try await servers[0].port())", "http://127.0.0.1:\(try await servers[1].port())"]
        let replica = { (name: String) in folder.appendingPathComponent("\(name).sqlite").path }
        /// Which instance each replica syncs through.
        let instance = ["laptop": 0, "phone": 1, "bob": 1]

        /// `todo sync` of a replica with its account's token, through its instance.
        func sync(_ name: String, _ token: String) throws {
            let result = try todo(["sync", "--server", urls[instance[name] ?? 0]], database: replica(name), environment: ["TODO_TOKEN": token])
            #expect(result.status == 0, "\(result.err)")
        }

        // Alice has a laptop and a phone (one shared account); bob his own replica.
        #expect(try todo(["add", "buy milk"], database: replica("laptop")).status == 0)
        #expect(try todo(["add", "bob's own"], database: replica("bob")).status == 0)
        for _ in 0..<2 {
            try sync("laptop", alice)
            try sync("bob", bob)
            try sync("phone", alice)
        }
        #expect(try todo(["list"], database: replica("phone")).out.contains("buy milk"))

        #expect(try todo(["add", "call mom"], database: replica("phone")).status == 0)
        #expect(try todo(["add", "bob again"], database: replica("bob")).status == 0)
        #expect(try todo(["add", "from the laptop"], database: replica("laptop")).status == 0)
        for _ in 0..<2 {
            try sync("phone", alice)
            try sync("laptop", alice)
            try sync("bob", bob)
        }

        let laptop = try todo(["list", "--all"], database: replica("laptop")).out
        let phone = try todo(["list", "--all"], database: replica("phone")).out
        for title in ["buy milk", "call mom", "from the laptop"] {
            #expect(laptop.contains(title) && phone.contains(title), "\(title): \(laptop) / \(phone)")
        }
        #expect(!laptop.contains("bob") && !phone.contains("bob"))
        let bobs = try todo(["list", "--all"], database: replica("bob")).out
        #expect(bobs.contains("bob's own") && bobs.contains("bob again") && !bobs.contains("buy milk") && !bobs.contains("call mom"), "\(bobs)")
    }
}
