import Foundation
import TestSupport
import Testing

/// Two `todo ui`s in real terminals (tmux), on two databases, kept in step
/// by one real `todo-server` with no key pressed; the server killed and
/// started again: both say offline, then catch up, nothing lost or doubled.
/// Nothing here is timed: each step waits for the screen to show its result.
@Suite("Live todo ui", .threadsOfTheirOwn, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
struct LiveUITests {
    func startUI(_ replica: TodoProcess, columns: Int = 100) throws -> TmuxSession {
        let command = "\(TmuxSession.quoted(TodoProcess.executable.path)) ui --database \(TmuxSession.quoted(replica.databasePath))"
        return try TmuxSession(
            command, in: replica.directory, columns: columns,
            environment: [
                "TERM": "xterm-256color", "NO_COLOR": "1",
                "XDG_CONFIG_HOME": replica.directory.appendingPathComponent("config").path,
            ]
        )
    }

    /// The server's todos, as curl reads them.
    static func serverList(_ url: String) throws -> String {
        try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", url + "/todos"]).out
    }

    @Test func twoViewsStayInStepThroughOneServerAndCatchUpAfterItRestarts() async throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("live-ui-\(UUID().uuidString).sqlite").path
        defer { removeDatabase(at: database) }
        var server = try ServerProcess(["--port", "0", "--database", database])
        let port = try await server.port()
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let url = "http://127.0.0.1:\(port)"
        let (a, b) = (try TodoProcess(), try TodoProcess())
        _ = try a.ok(["sync", "--server", url])
        _ = try b.ok(["sync", "--server", url])

        let viewA = try startUI(a)
        let viewB = try startUI(b)
        for view in [viewA, viewB] {
            try await view.awaitScreen(timeout: .seconds(60), "live in the header") { $0.contains("live · synced") }
        }

        // Added in one view: on the other with no key pressed.
        try viewA.send("a")
        try viewA.type("added in view A")
        try viewA.send("Enter")
        try await viewB.awaitScreen(timeout: .seconds(60), "A's add") { $0.contains("added in view A") && $0.contains("1 pending") }

        // Edited in the other: back in the first.
        try viewB.send("e")
        try viewB.send("C-u")
        try viewB.type("edited in view B")
        try viewB.send("Enter")
        try await viewA.awaitScreen(timeout: .seconds(60), "B's edit") { $0.contains("edited in view B") && !$0.contains("added in view A") }

        // Added by another todo command on A's machine: sent by A's view, shown by B's.
        _ = try a.ok(["add", "added by todo add"])
        try await viewB.awaitScreen(timeout: .seconds(60), "the command's add") { $0.contains("added by todo add") && $0.contains("2 pending") }

        // Deleted in B (the newest, selected after the add above arrived): gone in A.
        try viewB.send("k")
        try viewB.send("d")
        try await viewA.awaitScreen(timeout: .seconds(60), "B's delete") { !$0.contains("added by todo add") && $0.contains("1 pending") }

        // The server goes: both say offline; the views keep working.
        kill(server.process.processIdentifier, SIGKILL)
        _ = try await server.exitStatus()
        for view in [viewA, viewB] {
            try await view.awaitScreen(timeout: .seconds(30), "offline in the header") { $0.contains("offline") }
        }
        try viewA.send("a")
        try viewA.type("made while offline")
        try viewA.send("Enter")
        try await viewA.awaitScreen(timeout: .seconds(60), "the offline add") { $0.contains("made while offline") }

        // Back on the same port: both catch up, nothing lost, nothing doubled.
        server = try ServerProcess(["--port", "\(port)", "--database", database])
        _ = try await server.port()
        try await viewB.awaitScreen(timeout: .seconds(90), "the offline add, after the restart") { $0.contains("made while offline") }
        for view in [viewA, viewB] {
            try await view.awaitScreen(timeout: .seconds(90), "live again") { $0.contains("live · synced") && $0.contains("2 pending") }
        }
        let list = try Self.serverList(url)
        #expect(list.components(separatedBy: "made while offline").count == 2, "\(list)")
        #expect(list.components(separatedBy: "edited in view B").count == 2, "\(list)")
        #expect(!list.contains("added by todo add"))
        for view in [viewA, viewB] {
            try view.send("q")
            #expect(try view.waitForExit().status == 0)
        }
    }

    /// Issue 45, item 3: another person's sync deleted most of the list. The
    /// safety rail holds those deletions back; the view says so and asks
    /// (`F` makes them, `Esc` leaves them), and everything else still syncs.
    @Test func deletionsTheRailStopsAreAskedAboutWhileEverythingElseSyncs() async throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("held-ui-\(UUID().uuidString).sqlite").path
        defer { removeDatabase(at: database) }
        let server = try ServerProcess(["--port", "0", "--database", database])
        let port = try await server.port()
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let url = "http://127.0.0.1:\(port)"
        let (mum, other) = (try TodoProcess(), try TodoProcess())
        for index in 1...20 { _ = try other.ok(["add", "shared \(index)"]) }
        _ = try other.ok(["sync", "--server", url])
        _ = try mum.ok(["sync", "--server", url])
        // The other person deletes 15 of the 20 and syncs; mum has a change queued.
        _ = try other.ok(["rm", "--query", "shared 1", "--yes"])  // shared 1, 10…19
        _ = try other.ok(["rm", "--query", "shared 2", "--yes"])  // shared 2, 20
        _ = try other.ok(["sync"])
        #expect(try other.ok(["list"]).components(separatedBy: "\n").filter { $0.contains("shared") }.count == 7)
        _ = try mum.ok(["add", "mum's change"])

        let view = try startUI(mum, columns: 160)
        try await view.awaitScreen(timeout: .seconds(60), "the held deletions, asked about") {
            $0.contains("The sync held back deletions: it would delete 13 of the 2") && $0.contains("13 deletions held back")
        }
        // Everything else synced: mum's change is on the server.
        let deadline = ContinuousClock.now + .seconds(60)
        while !(try Self.serverList(url)).contains("mum's change"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try Self.serverList(url).contains("mum's change"))

        // Esc leaves them: no longer asked, still said in the header, nothing deleted.
        try view.send("Escape")
        try await view.awaitScreen(timeout: .seconds(30), "the question gone") {
            !$0.contains("The sync held back deletions") && $0.contains("13 deletions held back") && $0.contains("21 pending")
        }
        // F makes them, as todo sync --force would.
        try view.send("F")
        try await view.awaitScreen(timeout: .seconds(60), "the deletions made") {
            $0.contains("8 pending") && !$0.contains("held back")
        }
        try view.send("q")
        #expect(try view.waitForExit().status == 0)
        #expect(try mum.ok(["list"]).components(separatedBy: "\n").filter { $0.contains("shared") }.count == 7)
    }
}
