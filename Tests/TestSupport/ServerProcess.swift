import Foundation

/// The built `todo-server` executable, run as a separate process: shared by
/// the server's tests and the sync tests.
public final class ServerProcess: @unchecked Sendable {
    /// The binary beside the test bundle, where `swift build` puts it (the test
    /// target depends on it, so it is always built).
    public static let binary: URL? = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("todo-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    public let process = Process()
    private let lock = NSLock()
    private var output = Data()
    /// True while the reader has taken bytes from the pipe but not yet kept them.
    private var reading = false
    private let pipe = privatePipe()

    /// Runs the binary with `arguments`, collecting what it prints.
    /// A server (`--port`) closes a connection idle for ten minutes, not
    /// the default minute, unless the test gives `--idle-timeout`: a loaded
    /// machine can keep a test's next request waiting past a minute, and
    /// only the tests of the timeout itself are about it.
    public convenience init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let binary = Self.binary else { throw CocoaError(.fileNoSuchFile) }
        let serves = arguments.contains("--port") && !arguments.contains { $0.hasPrefix("--idle-timeout") }
        try self.init(executable: binary, arguments + (serves ? ["--idle-timeout", "600"] : []), environment: environment)
    }

    /// Runs any server that prints "listening on 127.0.0.1:PORT" once it listens.
    public init(executable binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.lock.withLock { self?.reading = true }
            let data = handle.availableData
            guard let self else { return }
            lock.withLock {
                output.append(data)
                reading = false
            }
        }
        try process.run()
    }

    public var printed: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

    /// Waits for the server's "listening on HOST:PORT" line and returns the port.
    public func port(timeout: Duration = .seconds(30)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let range = printed.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let line = printed[range]
                if let port = Int(line.split(separator: ":").last ?? "") { return port }
            }
            // Looked at once more after the deadline: on a loaded machine this
            // task may wake long after the server printed its line.
            if !process.isRunning || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(printed)"])
    }

    /// Waits for the process to end and returns its exit status.
    public func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // What it printed last may still be in the pipe. Not its end: another
        // child started meanwhile may hold the pipe open too.
        while unread > 0 || lock.withLock({ reading }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    /// Bytes in the pipe not yet read.
    private var unread: Int32 {
        var count: Int32 = 0
        _ = ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &count)
        return count
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}
