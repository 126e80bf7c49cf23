import Foundation
import TestSupport
import Testing

/// Requests pipelined on one connection, sent in one write to a real
/// `todo-server` process on each backend: each is answered, in order, and a
/// `Connection: close` closes the connection after its own answer: never
/// before the answers of the requests read before it, and a request read
/// after it is not applied.
@Suite(.serialized)
struct PipeliningTests {
    /// A batch of `count` creates, the one at `closing` (if any) asking to close.
    static func batch(_ label: String, count: Int, closing: Int?) -> String {
        (0..<count).map { index in
            let body = #"{"title":"\#(label)-\#(index)"}"#
            return "POST /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + (index == closing ? "Connection: close\r\n" : "") + "\r\n" + body
        }.joined()
    }

    static func statusLines(_ text: String) -> Int {
        text.components(separatedBy: "HTTP/1.1 ").count - 1
    }

    @Test(arguments: Backend.allCases)
    func everyPipelinedRequestIsAnsweredInOrderAndNoneAfterAClose(_ backend: Backend) async throws {
        let server = try ServerProcess(["--port", "0", "--database", try await makeDatabaseArgument(backend)])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let port = try await server.port()
        let count = 5
        // Every place for the close, and none.
        for closing in Array(0..<count) + [nil] {
            let label = "close\(closing.map(String.init) ?? "none")"
            let connection = try await RawConnection(port: port)
            try await connection.send(Self.batch(label, count: count, closing: closing))
            let answered = closing.map { $0 + 1 } ?? count
            let text: String
            if closing != nil {
                text = try #require(try await connection.readUntilClosed(timeout: .seconds(30)), "\(label): not closed")
            } else {
                text = try #require(try await connection.read(until: "\(label)-\(count - 1)", timeout: .seconds(30)), "\(label): not all answered")
            }
            #expect(Self.statusLines(text) == answered, "\(label): \(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 201").count - 1 == answered, "\(label): \(text)")
            // In order: each answer names its own title, one after the other.
            var rest = text[...]
            for index in 0..<answered {
                let range = try #require(rest.range(of: "\"\(label)-\(index)\""), "\(label): answer \(index) missing or out of order: \(text)")
                rest = rest[range.upperBound...]
            }
            if closing != nil {
                #expect(text.lowercased().components(separatedBy: "connection: close").count - 1 == 1, "\(label): \(text)")
            }
        }
        // What was applied: exactly the requests answered.
        let list = try await RawConnection(port: port)
        try await list.send("GET /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let listed = try #require(try await list.readUntilClosed(timeout: .seconds(30)))
        for closing in Array(0..<count) + [nil] {
            let label = "close\(closing.map(String.init) ?? "none")"
            for index in 0..<count {
                let applied = listed.contains("\"\(label)-\(index)\"")
                #expect(applied == (closing.map { index <= $0 } ?? true), "\(label)-\(index) applied: \(applied)")
            }
        }
    }

    /// A thousand GETs in one write, the last asking to close: all answered.
    @Test(arguments: Backend.allCases)
    func aThousandPipelinedGetsAreAllAnswered(_ backend: Backend) async throws {
        let server = try ServerProcess(["--port", "0", "--database", try await makeDatabaseArgument(backend)])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let connection = try await RawConnection(port: try await server.port())
        let get = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        try await connection.send(String(repeating: get, count: 999) + "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let text = try #require(try await connection.readUntilClosed(timeout: .seconds(60)))
        #expect(Self.statusLines(text) == 1_000)
        #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 1_000)
    }
}
