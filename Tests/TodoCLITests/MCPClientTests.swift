import Foundation
import Testing
import TestSupport

/// `todo mcp` driven by the official Python MCP client (PyPI `mcp`, which
/// `.ci/run` installs in `.build/venv`): `Scripts/mcp_client_session.py`
/// initializes, lists the tools, calls each one, checks that dry runs and
/// refused calls write nothing, undoes an assistant's change (with the tool
/// and with `todo undo`), pages a list, and syncs with a real
/// json-server-style server (`Benchmarks/json_server.py`).
@Suite("todo mcp with the Python MCP client", .threadsOfTheirOwn)
struct MCPClientTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python = repository.appendingPathComponent(".build/venv/bin/python")

    /// Whether the client is installed; `.ci/run` installs it.
    static var clientInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import mcp"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(.enabled(if: clientInstalled, "the Python mcp package is not in .build/venv: bash .ci/run installs it"))
    func aSessionThroughTheOfficialClient() throws {
        let todo = try TodoProcess()
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [
            Self.repository.appendingPathComponent("Tests/TodoCLITests/Scripts/mcp_client_session.py").path,
            TodoProcess.executable.path, todo.databasePath,
            Self.repository.appendingPathComponent("Benchmarks/json_server.py").path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = todo.directory.appendingPathComponent("config").path
        environment.removeValue(forKey: "TODO_SERVER")
        environment.removeValue(forKey: "TODO_TOKEN")
        process.environment = environment
        let output = privatePipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("all checks passed"), "\(printed)")
    }
}
