import Foundation
import TestSupport
import Testing

/// Two `todo` binaries through a json-server-style server process that pages
/// its list without saying so (`Benchmarks/json_server.py --paging silent`),
/// then with the server gone.
struct PagingEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/json_server.py")

    /// How many pending todos a database holds.
    static func count(_ database: String) throws -> Int {
        try todo(["list", "--json"], database: database).out.components(separatedBy: #""id":"#).count - 1
    }

    @Test func aServerThatPagesSilentlyNeverCostsATodo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-paging-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Self.script.path, "--port", "0", "--paging", "silent", "--page-size", "10"]
        )
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGTERM) } }
        let url = "http://127.0.0.1:\(try await server.port())"
        let a = folder.appendingPathComponent("a.sqlite").path
        let b = folder.appendingPathComponent("b.sqlite").path

        for index in 0..<25 { try todo(["add", "todo \(index)"], database: a) }
        let first = try todo(["sync", "--server", url], database: a)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("25 pushed"))

        // The next sync sees 10: the 15 left out are still there, so nothing goes.
        let second = try todo(["sync"], database: a)
        #expect(second.status == 1)
        #expect(second.err.contains("left out 15 todos that still exist on it"), "\(second.err)")
        #expect(try Self.count(a) == 25)

        // Told how the server pages, both replicas hold all 25.
        let paging = ["--page-param", "page", "--page-size-param", "size", "--first-page", "0"]
        let pulled = try todo(["sync", "--server", url] + paging, database: b)
        #expect(pulled.status == 0, "\(pulled.err)")
        #expect(pulled.out.contains("25 pulled"))
        #expect(try todo(["sync"] + paging, database: a).status == 0)
        #expect(try todo(["sync"], database: a).status == 0) // the paging is remembered
        #expect(try Self.count(b) == 25)

        // Offline: at once, exit 69, one line saying what stays safe.
        #expect(try todo(["add", "while offline"], database: a).status == 0)
        kill(server.process.processIdentifier, SIGTERM)
        _ = try await server.exitStatus()
        let offline = try todo(["sync"], database: a)
        #expect(offline.status == 69)
        #expect(offline.err.contains("nothing is listening there") && offline.err.contains("1 local change stays queued"), "\(offline.err)")
        #expect(offline.err.split(separator: "\n").count == 1)
        #expect(try Self.count(a) == 26)
    }
}
