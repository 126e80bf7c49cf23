import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The `todo-server` binary itself: flags, kill -9 durability, graceful shutdown.
@Suite("todo-server binary")
struct ExecutableTests {
    @Test func helpShowsTheFlagsAndAnExample() async throws {
        let server = try ServerProcess(["--help"])
        #expect(try await server.exitStatus() == 0)
        for text in ["--host", "--port", "--database", "--token", "TODO_SERVER_TOKEN", "--idle-timeout", "Examples:"] {
            #expect(server.printed.contains(text), "\(text)")
        }
    }

    @Test(arguments: [["--port", "abc"], ["--port", "70000"], ["--durability", "sometimes"], ["--bogus"], ["--idle-timeout", "0"], ["--token", ""]])
    func badFlagsGiveAShortErrorAndExitCode64(_ arguments: [String]) async throws {
        let server = try ServerProcess(arguments)
        #expect(try await server.exitStatus() == 64)
        #expect(server.printed.hasPrefix("Error: "), "\(server.printed)")
    }

    @Test func anEmptyTokenInTheEnvironmentIsRefusedLikeAnEmptyFlag() async throws {
        let server = try ServerProcess(["--port", "0", "--database", temporaryDatabasePath()], environment: ["TODO_SERVER_TOKEN": ""])
        #expect(try await server.exitStatus() == 64)
        #expect(server.printed.contains("TODO_SERVER_TOKEN must not be empty"), "\(server.printed)")
    }

    @Test func anAcknowledgedWriteSurvivesKill9() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let first = try ServerProcess(["--port", "0", "--database", path])
        let port = try await first.port()
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client async throws in
            for index in 0..<20 {
                #expect(try await client.send(.post, "/todos", #"{"id":"\#(index)"}"#).status == .created)
            }
            #expect(try await client.send(.patch, "/todos/19", #"{"title":"last write"}"#).status == .ok)
        }
        kill(first.process.processIdentifier, SIGKILL)
        _ = try await first.exitStatus()

        let second = try ServerProcess(["--port", "0", "--database", path])
        let secondPort = try await second.port()
        try await TestClient.withClient(host: "127.0.0.1", port: secondPort) { client in
            let all = try await client.send(.get, "/todos")
            #expect(try JSON(parsing: String(buffer: all.body ?? ByteBuffer())).count == 20)
            let last = try await client.send(.get, "/todos/19")
            #expect(try JSON(parsing: String(buffer: last.body ?? ByteBuffer()))["title"] == "last write")
        }
        kill(second.process.processIdentifier, SIGTERM)
        #expect(try await second.exitStatus() == 0)
    }

    /// A port another program holds: one line saying so and what to do, a
    /// non-zero exit, and nothing claimed as served.
    @Test func aPortInUseIsOneLineAndNoServing() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let first = try ServerProcess(["--port", "0", "--database", path])
        let port = try await first.port()
        let second = try ServerProcess(["--port", String(port), "--database", temporaryDatabasePath()])
        #expect(try await second.exitStatus() != 0)
        #expect(second.printed == "Error: cannot listen on 127.0.0.1:\(port): another program already uses that port; stop it, or choose another with --port\n")
        kill(first.process.processIdentifier, SIGTERM)
        #expect(try await first.exitStatus() == 0)
        #expect(first.printed.contains("Serving todos"))
    }

    @Test func theTokenComesFromTheEnvironment() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path], environment: ["TODO_SERVER_TOKEN": "env-token"])
        let port = try await server.port()
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client async throws in
            #expect(try await client.get("/todos").status == .unauthorized)
            #expect(try await client.get("/todos", headers: [.authorization: "Bearer env-token"]).status == .ok)
        }
        kill(server.process.processIdentifier, SIGINT)
        #expect(try await server.exitStatus() == 0)
    }

    @Test func jsonLogsAreOneObjectALine() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path, "--log-format", "json"])
        let port = try await server.port()
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client async throws in
            #expect(try await client.get("/todos?q=secret").status == .ok)
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.exitStatus() == 0)
        let lines = server.printed.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
            #expect(object?["level"] != nil && object?["message"] != nil && object?["time"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains("/todos?q=") && !$0.contains("secret") })
    }
}
