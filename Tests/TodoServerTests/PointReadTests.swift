import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServer

/// `GET /todos/:id` on a database file reads through connections of its own,
/// outside the pool: it must still show every committed write, whichever
/// connection or process made it.
struct PointReadTests {
    @Test func getByIDShowsAPatchSentOnAnotherConnection() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        try await makeApp(SQLiteTodoRepository.open(path: path)).test(.live) { client in
            let port = try #require(client.port)
            try await client.send(.post, "/todos", #"{"id":"a","title":"first"}"#)
            #expect(try await client.send(.get, "/todos/a").headers[.eTag] == #""1""#)

            let patched = try await TestClient.withClient(host: "127.0.0.1", port: port) { other in
                try await other.send(.patch, "/todos/a", #"{"title":"second"}"#)
            }
            #expect(patched.status == .ok)

            let read = try await client.send(.get, "/todos/a")
            #expect(read.status == .ok)
            #expect(read.headers[.eTag] == #""2""#)
            #expect(String(buffer: read.body) == String(buffer: patched.body ?? ByteBuffer()))
            #expect(try JSON(parsing: String(buffer: read.body))["title"] == "second")
            let stale = try await client.execute(uri: "/todos/a", method: .get, headers: [.ifNoneMatch: #""1""#])
            #expect(stale.status == .ok)
            let current = try await client.execute(uri: "/todos/a", method: .get, headers: [.ifNoneMatch: #""2""#])
            #expect(current.status == .notModified)
        }
    }

    @Test func getByIDShowsWritesAnotherProcessMadeToTheFile() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        try await makeApp(SQLiteTodoRepository.open(path: path)).test(.live) { client in
            try await client.send(.post, "/todos", #"{"id":"a","title":"first"}"#)
            #expect(try await client.send(.get, "/todos/a").headers[.eTag] == #""1""#)
            #expect(try await client.send(.get, "/todos/b").status == .notFound)

            // A second todo-server process on the same file writes behind this one's back.
            let other = try ServerProcess(["--port", "0", "--database", path])
            let otherPort = try await other.port()
            let (patched, created) = try await TestClient.withClient(host: "127.0.0.1", port: otherPort) { writer in
                (
                    try await writer.send(.patch, "/todos/a", #"{"completed":true}"#),
                    try await writer.send(.post, "/todos", #"{"id":"b","title":"from elsewhere"}"#)
                )
            }
            #expect(patched.status == .ok)
            #expect(created.status == .created)

            let a = try await client.send(.get, "/todos/a")
            #expect(a.headers[.eTag] == #""2""#)
            #expect(String(buffer: a.body) == String(buffer: patched.body ?? ByteBuffer()))
            let b = try await client.send(.get, "/todos/b")
            #expect(b.status == .ok)
            #expect(String(buffer: b.body) == String(buffer: created.body ?? ByteBuffer()))

            let deleted = try await TestClient.withClient(host: "127.0.0.1", port: otherPort) { writer in
                try await writer.send(.delete, "/todos/a")
            }
            #expect(deleted.status == .ok)
            let gone = try await client.send(.get, "/todos/a")
            #expect(gone.status == .notFound)
            #expect(gone.errorMessage == "No todo has id a.")

            kill(other.process.processIdentifier, SIGTERM)
            #expect(try await other.exitStatus() == 0)
        }
    }
}
