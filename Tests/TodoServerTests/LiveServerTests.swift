import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServer

/// The server over a real socket on a free loopback port, on a database file.
struct LiveServerTests {
    @Test func crudOverARealSocket() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        try await makeApp(SQLiteTodoRepository.open(path: path)).test(.live) { client in
            #expect(client.port != nil)
            let created = try await client.send(.post, "/todos", #"{"title":"over the wire"}"#)
            #expect(created.status == .created)
            let location = try #require(created.headers[.location])
            #expect(try await client.send(.patch, location, #"{"completed":true}"#).status == .ok)
            #expect(try await client.send(.get, "/todos?completed=true").json.count == 1)
            #expect(try await client.send(.delete, location).status == .ok)
            #expect(try await client.send(.get, "/nowhere").status == .notFound)
        }
    }

    /// Fifty writers at once, to a server process of its own (in the test
    /// process it shared its threads with every suite around it, and a full
    /// run once kept a connection waiting until it was closed).
    @Test func fiftyParallelWritersLoseNothing() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        @Sendable func connected<T: Sendable>(_ operation: @escaping @Sendable (TestClient) async throws -> T) async throws -> T {
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120)), operation: operation)
        }
        try await connected { client in
            _ = try await client.send(.post, "/todos", #"{"id":"shared","count":0}"#)
            // Fifty connections of their own, so the writes really are concurrent.
            let statuses = try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                for writer in 0..<50 {
                    group.addTask {
                        try await connected { connection in
                            var statuses: [HTTPResponse.Status] = []
                            for item in 0..<4 {
                                let body = #"{"id":"w\#(writer)-\#(item)","title":"writer \#(writer)"}"#
                                statuses.append(try await connection.send(.post, "/todos", body).status)
                            }
                            statuses.append(try await connection.send(.patch, "/todos/shared", #"{"by\#(writer)":true}"#).status)
                            return statuses
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.filter { $0 == .created }.count == 200)
            #expect(statuses.filter { $0 == .ok }.count == 50)
            func json(_ response: TestClient.Response) throws -> JSON {
                try JSON(parsing: String(buffer: response.body ?? ByteBuffer()))
            }
            let all = try await client.send(.get, "/todos")
            #expect(try json(all).count == 201)
            #expect(all.headers[.init("X-Cursor")!] == "251")
            let shared = try json(try await client.send(.get, "/todos/shared"))
            #expect(shared["version"] == 51)
            #expect(shared.count == 2 + 50 + 2)
            let feed = try json(try await client.send(.get, "/todos?_since=0"))
            #expect(feed["items"]?.count == 201)
        }
    }

    /// Ten writers and ten readers, each on a connection of its own (on one
    /// shared connection the twentieth request waits behind nineteen, and a
    /// loaded CI machine ran past the client's read timeout), to a server
    /// process of its own: one inside the test process shared its threads
    /// with the suites around it and lost connections under a full run.
    @Test func writesAreServedToReadersWhileWritersRun() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120))) { client in
            func connected(_ operation: @escaping @Sendable (TestClient) async throws -> Void) async throws {
                try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120)), operation: operation)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<10 {
                    group.addTask {
                        try await connected { connection in
                            for item in 0..<10 {
                                let created = try await connection.send(.post, "/todos", #"{"id":"\#(writer)-\#(item)"}"#)
                                #expect(created.status == .created)
                            }
                        }
                    }
                    group.addTask {
                        try await connected { connection in
                            for _ in 0..<10 {
                                let listed = try await connection.send(.get, "/todos")
                                #expect(listed.status == .ok)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try JSON(parsing: String(buffer: try await client.send(.get, "/todos").body ?? ByteBuffer())).count == 100)
        }
    }
}

func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("todo-server-\(UUID()).sqlite").path
}

extension TestClient {
    /// One request on this connection.
    func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil) async throws -> TestClient.Response {
        let headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
        return try await execute(
            TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body.map { ByteBuffer(string: $0) })
        )
    }
}
