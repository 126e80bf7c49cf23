import Foundation
import TestSupport
import Testing

/// `todo sync --watch` against a real json-server-style process
/// (`Benchmarks/json_server.py`): a change made on the server by curl
/// arrives without a key pressed, a `todo add` made meanwhile by another
/// process is pushed, and SIGTERM ends the watch cleanly.
@Suite(.threadsOfTheirOwn)
struct SyncWatchTests {
    /// The server's todos as curl reads them.
    static func serverList(_ url: String) throws -> String {
        try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", url + "/todos"]).out
    }

    static func eventually(_ seconds: Double = 60, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try condition()
    }

    @Test func aWatchPullsWhatCurlAddsPushesWhatTodoAddsAndEndsOnSIGTERM() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", PagingEndToEndTests.script.path, "--port", "0"])
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGTERM) } }
        let url = "http://127.0.0.1:\(try await server.port())"
        let replica = folder.appendingPathComponent("replica.sqlite").path
        #expect(try todo(["add", "made before watching"], database: replica).status == 0)

        let watch = Process()
        watch.executableURL = builtBinary("todo")
        watch.arguments = ["sync", "--watch", "--every", "1", "--server", url]
        var environment = ProcessInfo.processInfo.environment
        environment["TODO_DATABASE"] = replica
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        watch.environment = environment
        let output = privatePipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }

        #expect(try await Self.eventually { try Self.serverList(url).contains("made before watching") })
        // Added on the server by curl: pulled by the next sync, with no key pressed.
        try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-X", "POST", "-H", "Content-Type: application/json",
                                                               "-d", #"{"title":"added by curl","completed":false}"#, url + "/todos"])
        #expect(try await Self.eventually { try todo(["list"], database: replica).out.contains("added by curl") })
        // Added here by another todo process while the watch sleeps: pushed within seconds.
        #expect(try todo(["add", "added while watching"], database: replica).status == 0)
        #expect(try await Self.eventually(30) { try Self.serverList(url).contains("added while watching") })

        kill(watch.processIdentifier, SIGTERM)
        #expect(try await Self.eventually(15) { !watch.isRunning })
        #expect(watch.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("Synced: 0 pulled, 1 pushed"), "\(printed)")
        #expect(printed.contains("1 pulled"), "\(printed)")
        // Nothing sent twice.
        #expect(try Self.serverList(url).components(separatedBy: "added while watching").count == 2)
    }
}
