import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServer

/// Two `todo-server` processes on one database behave as one server: writes
/// acknowledged by either are in both one's feed and the other's list, for
/// each account apart.
@Suite("todo-server processes sharing a database")
struct SharedDatabaseTests {
    static let writesPerWriter = 60

    @Test(arguments: Backend.allCases)
    func aFeedReaderFollowingOneServerRebuildsTheListWrittenThroughBoth(_ backend: Backend) async throws {
        let path = try await makeDatabaseArgument(backend)
        defer { removeDatabase(at: path) }
        let tokens = [try await addAccount("alice", database: path), try await addAccount("bob", database: path)]
        let servers = [try ServerProcess(["--port", "0", "--database", path]), try ServerProcess(["--port", "0", "--database", path])]
        let ports = [try await servers[0].port(), try await servers[1].port()]
        defer { for server in servers { kill(server.process.processIdentifier, SIGKILL) } }

        // Two writers per account, one on each server, all at once, over the
        // same few ids; a reader per account follows the feed on server 1
        // while they write.
        let replicas = try await withThrowingTaskGroup(of: (Int, FeedReplica)?.self) { group in
            for account in 0..<2 {
                for writer in 0..<2 {
                    group.addTask {
                        try await Self.write(port: ports[writer], token: tokens[account], seed: account * 2 + writer)
                        return nil
                    }
                }
                group.addTask {
                    var replica = FeedReplica()
                    try await replica.follow(port: ports[1], token: tokens[account], requests: 40, stopWhenCaughtUp: false)
                    return (account, replica)
                }
            }
            var replicas: [Int: FeedReplica] = [:]
            for try await case let (account, replica)? in group { replicas[account] = replica }
            return replicas
        }
        for account in 0..<2 {
            // What the reader missed while the writers ran, it reads now: the
            // feed gives every change once, in commit order.
            var replica = replicas[account] ?? FeedReplica()
            try await replica.follow(port: ports[1], token: tokens[account], requests: 1_000, stopWhenCaughtUp: true)
            let list = try await TestClient.withClient(host: "127.0.0.1", port: ports[0]) { client in
                try JSON(parsing: String(buffer: try await client.get("/todos", headers: bearer(tokens[account])).body ?? ByteBuffer()))
            }
            var listed: [String: JSON] = [:]
            for index in 0..<list.count {
                if let item = list[index], let id = item["id"] { listed[FeedReplica.key(id)] = item }
            }
            #expect(!listed.isEmpty)
            #expect(replica.todos == listed, "account \(account)")
        }
    }

    @Test(arguments: Backend.allCases)
    func killing9OneProcessDuringWritesLosesNoAcknowledgedWrite(_ backend: Backend) async throws {
        let path = try await makeDatabaseArgument(backend)
        defer { removeDatabase(at: path) }
        let token = try await addAccount("alice", database: path)
        let servers = [try ServerProcess(["--port", "0", "--database", path]), try ServerProcess(["--port", "0", "--database", path])]
        defer { for server in servers { kill(server.process.processIdentifier, SIGKILL) } }
        let ports = [try await servers[0].port(), try await servers[1].port()]
        let victim = servers[0].process.processIdentifier

        // Both write new todos; server 0 is killed with a write of its on the
        // way, after its 30th acknowledged one, while server 1 goes on.
        let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
            for server in 0..<2 {
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: ports[server]) { client in
                        var acknowledged: [String] = []
                        for index in 0..<60 {
                            let request = Self.create(id: "s\(server)-\(index)", token: token)
                            if server == 0, index == 30 {
                                async let inFlight = client.execute(request)
                                kill(victim, SIGKILL)
                                _ = try? await inFlight
                                break
                            }
                            if try await client.execute(request).status == .created {
                                acknowledged.append("s\(server)-\(index)")
                            }
                        }
                        return acknowledged
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(acknowledged.count == 90)

        var replica = FeedReplica()
        try await replica.follow(port: ports[1], token: token, requests: 1_000, stopWhenCaughtUp: true)
        let list = try await TestClient.withClient(host: "127.0.0.1", port: ports[1]) { client in
            try JSON(parsing: String(buffer: try await client.get("/todos", headers: bearer(token)).body ?? ByteBuffer()))
        }
        let listed = Set((0..<list.count).compactMap { list[$0]?["id"]?.string })
        #expect(Set(acknowledged).isSubset(of: listed))
        #expect(Set(replica.todos.keys) == listed)
    }

    /// `POST /todos` of a todo with this id.
    private static func create(id: String, token: String) -> TestClient.Request {
        var headers = bearer(token)
        headers[.contentType] = "application/json"
        return TestClient.Request("/todos", method: .post, authority: "localhost", headers: headers, body: ByteBuffer(string: #"{"id":"\#(id)"}"#))
    }

    /// Creates, patches and deletes todos `0`…`4` in an order drawn from `seed`.
    private static func write(port: Int, token: String, seed: Int) async throws {
        var random = SeededRandom(seed: UInt64(seed + 1))
        let requests = (0..<writesPerWriter).map { step -> (HTTPRequest.Method, String, String?) in
            let id = random.pick(["0", "1", "2", "3", "4"])
            return switch random.pick([0, 1, 1, 2]) {
            case 0: (.post, "/todos", #"{"id":"\#(id)","title":"\#(seed)-\#(step)"}"#)
            case 1: (.patch, "/todos/\(id)", #"{"title":"\#(seed)-\#(step)"}"#)
            default: (.delete, "/todos/\(id)", nil)
            }
        }
        var headers = bearer(token)
        headers[.contentType] = "application/json"
        try await TestClient.withClient(host: "127.0.0.1", port: port) { [headers] client in
            for request in requests {
                let response = try await client.execute(
                    TestClient.Request(request.1, method: request.0, authority: "localhost", headers: headers, body: request.2.map { ByteBuffer(string: $0) })
                )
                // 404 and 409 are the other writer's doing; nothing else may happen.
                #expect([200, 201, 404, 409].contains(response.status.code), "\(response.status)")
            }
        }
    }

}

/// The todos of one account as rebuilt from its change feed alone.
private struct FeedReplica: Sendable {
    var todos: [String: JSON] = [:]
    var cursor = "0"

    /// Reads the feed in pages of at most 7 changes and applies each; with
    /// `stopWhenCaughtUp`, until a page says there is no more.
    mutating func follow(port: Int, token: String, requests: Int, stopWhenCaughtUp: Bool) async throws {
        self = try await TestClient.withClient(host: "127.0.0.1", port: port) { [self] client in
            var replica = self
            for _ in 0..<requests {
                let response = try await client.get("/todos?_since=\(replica.cursor)&_limit=7", headers: bearer(token))
                let page = try JSON(parsing: String(buffer: response.body ?? ByteBuffer()))
                for index in 0..<(page["items"]?.count ?? 0) {
                    if let item = page["items"]?[index], let id = item["id"] { replica.todos[Self.key(id)] = item }
                }
                for index in 0..<(page["deleted"]?.count ?? 0) {
                    if let id = page["deleted"]?[index]?["id"] { replica.todos.removeValue(forKey: Self.key(id)) }
                }
                replica.cursor = page["cursor"]?.string ?? replica.cursor
                if stopWhenCaughtUp, page["more"] == false { break }
            }
            return replica
        }
    }

    static func key(_ id: JSON) -> String {
        id.string ?? "\(id)"
    }
}
