import Foundation
import TestSupport

/// A `todo mcp` process spoken to over its standard input and output, one
/// JSON-RPC message a line, with exact bytes: what the protocol tests send.
///
/// Its output is drained by a thread of its own, never by a dispatch source:
/// the tests wait synchronously on Swift Testing's few cooperative threads,
/// and a drain that needs one of those threads could starve while `todo mcp`
/// blocks writing to a full pipe and the test blocks writing to it.
final class MCPPipe: Sendable {
    let process = Process()
    private let input = privatePipe()
    private let output = privatePipe()
    private let received = Received()

    init(database: String, environment: [String: String] = [:]) throws {
        process.executableURL = TodoProcess.executable
        process.arguments = ["mcp", "--database", database]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Both pipes are private (`privatePipe`): a process another test
        // starts meanwhile (the tests share one process) would otherwise keep
        // `todo mcp`'s input open after `closeInput`, and this long-lived
        // `todo mcp` would keep another test's pipes open.
        try process.run()
        let reading = output.fileHandleForReading
        let drain = Thread { [received] in
            while true {
                let data = reading.availableData
                if data.isEmpty { return }
                received.append(data)
            }
        }
        drain.name = "MCPPipe drain"
        drain.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func sendWithoutNewline(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func send(_ message: [String: Any]) throws {
        try send(String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self))
    }

    /// Sends a request and waits for the answer with its id.
    func request(_ id: Int, _ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        while true {
            let message = try next()
            if message["id"] as? Int == id { return message }
        }
    }

    /// Calls a tool; its result.
    func call(_ id: Int, _ tool: String, _ arguments: [String: Any]) throws -> [String: Any] {
        let answer = try request(id, "tools/call", ["name": tool, "arguments": arguments])
        guard let result = answer["result"] as? [String: Any] else { throw TodoProcess.Failure("no result: \(answer)") }
        return result
    }

    /// The next message, waiting up to `timeout`.
    func next(timeout: Duration = .seconds(20)) throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = received.nextLine() {
                guard let message = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw TodoProcess.Failure("not a JSON object: \(String(decoding: line, as: UTF8.self))")
                }
                return message
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        throw TodoProcess.Failure("todo mcp answered nothing within \(timeout)")
    }

    func initialize() throws -> [String: Any] {
        let answer = try request(0, "initialize", [
            "protocolVersion": "2025-11-25", "capabilities": [:] as [String: Any],
            "clientInfo": ["name": "tests", "version": "1"],
        ])
        try send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        return answer
    }

    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Waits for the process to end; its status.
    func exitStatus(timeout: Duration = .seconds(20)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if let status = endedStatus(of: process.processIdentifier) { return status }
            guard ContinuousClock.now < deadline else {
                // Still reading its input (held open elsewhere), or gone unnoticed by `Process`?
                let state = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/wchan", encoding: .utf8)) ?? "gone"
                throw TodoProcess.Failure("todo mcp did not exit within \(timeout) (its wait channel: \(state))")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return process.terminationStatus
    }
}

/// What the process printed and the tests have not read yet.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ data: Data) {
        lock.withLock { buffer.append(data) }
    }

    func nextLine() -> Data? {
        lock.withLock {
            guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = Data(buffer[buffer.startIndex..<newline])
            buffer = Data(buffer[(newline + 1)...])
            return line
        }
    }
}
