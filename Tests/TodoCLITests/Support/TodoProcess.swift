import Foundation
import TestSupport

/// Runs the built `todo` binary, as a user would, on its own database, in a
/// temporary folder removed when the test is done with it.
final class TodoProcess: Sendable {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A fresh temporary folder holding the database.
    let directory: URL
    var databasePath: String { directory.appendingPathComponent("todo.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("todo-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The `todo` executable built beside this test bundle.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("todo").path) {
            let parent = folder.deletingLastPathComponent()
            precondition(parent != folder, "the todo binary was not found beside \(bundle.path)")
            folder = parent
        }
        return folder.appendingPathComponent("todo")
    }()

    /// Runs `todo ARGS` (or, with `shell`, `sh ARGS`) with TODO_DATABASE
    /// pointing at this test's database.
    @discardableResult
    func run(
        _ arguments: [String], stdin: String? = nil, shell: Bool = false, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = shell ? URL(fileURLWithPath: "/bin/sh") : Self.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TODO_DATABASE"] = databasePath
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env.removeValue(forKey: "NO_COLOR")
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = privatePipe()
        let err = privatePipe()
        process.standardOutput = out
        process.standardError = err
        let input = privatePipe()
        process.standardInput = input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
        }
        try input.fileHandleForWriting.close()
        // Standard error is read beside standard output: a pipe holds 64 KiB,
        // and a todo writing more to the one not being read would wait forever.
        let stderrData = Collected()
        let errors = err.fileHandleForReading
        Thread.detachNewThread {
            stderrData.data = errors.readDataToEndOfFile()
            stderrData.done.signal()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        stderrData.done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData.data, as: UTF8.self)
        )
    }

    /// What a reading thread collected, read once it signals `done`.
    private final class Collected: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `todo ARGS` and returns stdout, requiring success.
    func ok(_ arguments: [String], stdin: String? = nil) throws -> String {
        let result = try run(arguments, stdin: stdin)
        guard result.status == 0 else {
            throw Failure("todo \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// Runs `todo add ARGS --json` and returns the new todo's full ID.
    func add(_ arguments: [String]) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(try ok(["add"] + arguments + ["--json"]).utf8))
        guard let id = (object as? [String: Any])?["id"] as? String else { throw Failure("todo add printed no id: \(object)") }
        return id
    }

    /// The JSON array `todo list --json` prints, decoded.
    func listJSON(_ arguments: [String] = []) throws -> [[String: Any]] {
        let data = Data(try ok(["list", "--json"] + arguments).utf8)
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
