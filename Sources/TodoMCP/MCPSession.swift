import Foundation
import TodoSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An MCP session over standard input and output (the stdio transport of
/// MCP 2025-11-25): one JSON-RPC message a line in, one answer a line out.
///
/// Requests are answered one at a time, in the order they came, on the main
/// actor, so the session ends only once every request read is answered: a
/// client that closes its end mid-call still gets the call carried out whole.
/// A line longer than `limit` is refused as it comes and never held whole.
///
/// Written here rather than taken from the official Swift SDK, whose HTTP
/// transport links Foundation's networking and libcurl into the binary:
/// neither links into the static `todo`, whose start-up every command pays.
@MainActor
public struct MCPSession {
    /// The revisions spoken, newest first; a client asking for another gets the newest.
    static let revisions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The largest message read: 1 MiB, far above any call a model makes.
    static let defaultLimit = 1 << 20

    let calls: TodoToolCalls
    /// `todo --version`'s, said to the client as the server's.
    let version: String
    var input: Int32 = STDIN_FILENO
    var output: Int32 = STDOUT_FILENO
    var limit = MCPSession.defaultLimit

    /// A session on standard input and output.
    public init(calls: TodoToolCalls, version: String) {
        self.calls = calls
        self.version = version
    }

    static let instructions = """
        The user's todo list, kept offline on this machine. Todos are named by UUID; \
        list_todos finds them. Every change takes dry_run, and undo takes the last change back.
        """

    /// Serves until standard input ends.
    public func run() async {
        for await line in LineReader(input: input, limit: limit).lines() {
            let answer: JSONValue?
            switch line {
            case .tooLong:
                answer = Self.failure(RPCError(.invalidRequest, "a message longer than 1 MiB was refused: send smaller requests"), id: nil)
            case let .message(bytes):
                answer = await self.answer(bytes)
            }
            if let answer { write(answer) }
        }
    }

    /// The answer to one line: nil for a notification or a response.
    func answer(_ bytes: Data) async -> JSONValue? {
        guard let message = try? JSONValue.parse(Array(bytes)) else {
            return Self.failure(RPCError(.parseError, "parse error: the message is not JSON"), id: nil)
        }
        guard case let .object(members) = message else {
            // Batches left JSON-RPC's use in MCP with the 2025-06-18 revision.
            return Self.failure(RPCError(.invalidRequest, "invalid request: a message is one JSON object"), id: nil)
        }
        // A request's id is a string or a whole number; null, or none, is a notification's.
        let id: JSONValue?
        switch members["id"] {
        case nil: id = nil
        case let value? where { if case .string = value { true } else if case .integer = value { true } else { false } }():
            id = value
        default:
            return Self.failure(RPCError(.invalidRequest, "invalid request: \"id\" must be a string or a whole number"), id: nil)
        }
        guard members["jsonrpc"] == "2.0" else {
            return Self.failure(RPCError(.invalidRequest, "invalid request: \"jsonrpc\" must be \"2.0\""), id: id)
        }
        guard case let .string(method)? = members["method"] else {
            // A response to a request of ours (we send none), or nothing at all.
            if members["result"] != nil || members["error"] != nil { return nil }
            return Self.failure(RPCError(.invalidRequest, "invalid request: a request needs a \"method\" string"), id: id)
        }
        guard let id else {
            // A notification (initialized, cancelled, ...): never answered.
            return nil
        }
        do {
            return ["jsonrpc": "2.0", "id": id, "result": try await result(method, members["params"] ?? .null)]
        } catch {
            return Self.failure(error, id: id)
        }
    }

    private func result(_ method: String, _ params: JSONValue) async throws(RPCError) -> JSONValue {
        switch method {
        case "initialize":
            let asked = params["protocolVersion"].flatMap { if case let .string(text) = $0 { text } else { nil } }
            return [
                "protocolVersion": .string(asked.flatMap { Self.revisions.contains($0) ? $0 : nil } ?? Self.revisions[0]),
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": "todo", "title": "todo", "version": .string(version)],
                "instructions": .string(Self.instructions),
            ]
        case "ping":
            return [:]
        case "tools/list":
            return ["tools": .array(calls.tools.map(\.json))]
        case "tools/call":
            guard case let .string(name)? = params["name"] else {
                throw RPCError(.invalidParams, "tools/call needs \"name\", the tool's name")
            }
            let arguments: [String: JSONValue]?
            switch params["arguments"] {
            case nil, .null?: arguments = nil
            case let .object(members)?: arguments = members
            default: throw RPCError(.invalidParams, "tools/call's \"arguments\" must be an object")
            }
            return try await calls.call(name, arguments: arguments)
        default:
            throw RPCError(.methodNotFound, "method not found: '\(method)'")
        }
    }

    static func failure(_ error: RPCError, id: JSONValue?) -> JSONValue {
        ["jsonrpc": "2.0", "id": id ?? .null, "error": ["code": .integer(Int64(error.code.rawValue)), "message": .string(error.message)]]
    }

    /// Writes one message and a newline, whole, however the pipe splits it
    /// (and if the client left standard output non-blocking, waiting for room).
    private func write(_ message: JSONValue) {
        let bytes = message.bytes + [UInt8(ascii: "\n")]
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(output, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var ready = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                // The client is gone (SIGPIPE is ignored, see MCPCommand): nothing left to tell it.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// A JSON-RPC error, with its code.
struct RPCError: Error {
    enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// Splits a descriptor's bytes into lines, on a thread of its own that
/// blocks on `read`: a request is read the moment it comes, with no polling.
struct LineReader: Sendable {
    enum Line: Sendable {
        case message(Data)
        /// A line over the limit, dropped as it came.
        case tooLong
    }

    let input: Int32
    let limit: Int

    /// The lines, as they come, until end of input.
    func lines() -> AsyncStream<Line> {
        let (lines, continuation) = AsyncStream.makeStream(of: Line.self)
        let thread = Thread {
            run { continuation.yield($0) }
            continuation.finish()
        }
        thread.name = "todo mcp input"
        thread.start()
        return lines
    }

    /// Calls `body` with each line that is not blank, until end of input or an error.
    func run(_ body: (Line) -> Void) {
        var pending = Data()
        var discarding = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            while start < count {
                guard let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n")) else {
                    if !discarding { pending.append(contentsOf: buffer[start..<count]) }
                    if pending.count > limit {
                        pending = Data()
                        discarding = true
                    }
                    break
                }
                if discarding {
                    discarding = false
                    body(.tooLong)
                } else {
                    pending.append(contentsOf: buffer[start..<newline])
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    if pending.count > limit {
                        body(.tooLong)
                    } else if !pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                        body(.message(pending))
                    }
                }
                pending = Data()
                start = newline + 1
            }
        }
        // A last line with no newline after it is a line too.
        if discarding {
            body(.tooLong)
        } else {
            if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            if !pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { body(.message(pending)) }
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
