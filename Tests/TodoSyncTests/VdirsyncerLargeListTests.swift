import Foundation
import TestSupport
import Testing

/// vdirsyncer given todo-server's base address, as Radicale's users give
/// theirs, on a list of 10,000 tasks: it finds the list through the
/// principal, asks for every task in one calendar-multiget, and syncs them
/// all; a sync after that reads nothing again, and a change made through
/// the JSON API reaches it. `VDIRSYNCER_TASKS=100000 swift test --filter
/// VdirsyncerLargeListTests` runs it at another size.
@Suite(.threadsOfTheirOwn)
struct VdirsyncerLargeListTests {
    static let count = ProcessInfo.processInfo.environment["VDIRSYNCER_TASKS"].flatMap { Int($0) } ?? 10_000

    @Test(.enabled(if: CalDAVClientsTests.clientsInstalled, "vdirsyncer is not in .build/venv: bash .ci/run installs it"))
    func vdirsyncerSyncsALargeListFromTheBaseAddress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-vdirsyncer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("vdir/tasks"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let add = try ServerProcess(["user", "add", "alice", "--database", database])
        #expect(try await add.exitStatus() == 0)
        let token = try #require(add.printed.split(separator: "\n").first { $0.hasPrefix("todo_") }.map(String.init))
        let server = try ServerProcess(["--port", "0", "--database", database])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())"

        // The tasks, 1,000 to a batch through the JSON API.
        let ids = (0..<Self.count).map { _ in UUID().uuidString.lowercased() }
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let operations = ids[start..<min(start + 1_000, ids.count)].enumerated().map { offset, id in
                #"{"method":"POST","body":{"id":"\#(id)","title":"task \#(start + offset)"}}"#
            }
            let batch = folder.appendingPathComponent("batch.json")
            try Data(#"{"operations":[\#(operations.joined(separator: ","))]}"#.utf8).write(to: batch)
            let posted = try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                "-H", "Content-Type: application/json", "--data-binary", "@" + batch.path, url + "/todos/_batch",
            ])
            #expect(posted.out == "200", "batch at \(start): \(posted.out) \(posted.err)")
        }
        try CalDAVClientsTests.vdirsyncerConfig(
            folder: folder, local: "\(folder.path)/vdir/", url: "\(url)/", collections: #"["from b"]"#, password: token
        ).write(to: folder.appendingPathComponent("vdirsyncer.conf"), atomically: true, encoding: .utf8)
        func vdirsyncer(_ arguments: [String]) throws -> String {
            let result = try CalDAVClientsTests.run(CalDAVClientsTests.vdirsyncer, ["-c", folder.appendingPathComponent("vdirsyncer.conf").path] + arguments)
            #expect(result.status == 0, "vdirsyncer \(arguments): \(result.out.suffix(2_000))\(result.err.suffix(2_000))")
            return result.out + result.err
        }
        let local = folder.appendingPathComponent("vdir/tasks")
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: local.path).filter { $0.hasSuffix(".ics") }
        }

        let discovered = try vdirsyncer(["discover"])
        #expect(discovered.contains(#""tasks""#), "\(discovered)")
        // Quiet: not a line per task.
        _ = try vdirsyncer(["-v", "WARNING", "sync"])
        #expect(try files().count == Self.count)
        // Every task once, as the server has it.
        let sample = ids[Self.count / 2]
        let text = try String(contentsOf: local.appendingPathComponent(sample + ".ics"), encoding: .utf8)
        #expect(text.contains("UID:\(sample)") && text.contains("SUMMARY:task \(Self.count / 2)"), "\(text)")

        // Nothing changed: nothing copied.
        let again = try vdirsyncer(["sync"])
        #expect(!again.contains("Copying"), "\(again.suffix(1_000))")

        // A change through the JSON API reaches the folder.
        let patched = try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PATCH", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json", "--data-binary", #"{"title":"task renamed"}"#, url + "/todos/" + sample,
        ])
        #expect(patched.out == "200")
        let changed = try vdirsyncer(["sync"])
        #expect(changed.contains("Copying (updating) item \(sample)"), "\(changed.suffix(1_000))")
        #expect(try String(contentsOf: local.appendingPathComponent(sample + ".ics"), encoding: .utf8).contains("SUMMARY:task renamed"))
    }
}
