import Foundation
import Testing
import TestSupport

/// `todo ui` in a real terminal: tmux runs it on a temporary database, keys
/// are sent, the screen is read back. Nothing here is timed: each step waits,
/// generously, for the screen to show its result.
@Suite("todo ui in a terminal", .threadsOfTheirOwn, .serialized, .enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
struct UIEndToEndTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    func startUI(columns: Int = 80, environment: [String: String] = [:]) throws -> TmuxSession {
        let command = "\(TmuxSession.quoted(TodoProcess.executable.path)) ui --database \(TmuxSession.quoted(todo.databasePath))"
        return try TmuxSession(
            command, in: todo.directory, columns: columns,
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1"].merging(environment) { _, new in new }
        )
    }

    /// `stty -a` shows echo and line mode on, as before `todo ui`.
    func expectRestored(_ stty: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let modes = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(modes.contains("echo") && modes.contains("icanon"), "\(stty)", sourceLocation: sourceLocation)
        #expect(!modes.contains("-echo") && !modes.contains("-icanon"), "\(stty)", sourceLocation: sourceLocation)
    }

    @Test func addFilterToggleDeleteUndoOutsideChangesAndQuit() throws {
        _ = try todo.ok(["add", "buy milk"])
        _ = try todo.ok(["add", "call the bank"])
        let ui = try startUI()
        try ui.waitForScreen("the first frame") { $0.contains("2 pending · 0 done") && $0.contains("buy milk") }

        try ui.send("a")
        try ui.type("write the report")
        try ui.send("Enter")
        try ui.waitForScreen("the added todo") { $0.contains("write the report") && $0.contains("3 pending") }

        try ui.send("/")
        try ui.type("REP")
        try ui.waitForScreen("the filtered list") { !$0.contains("buy milk") && $0.contains("write the report") && $0.contains("query “REP”") }
        try ui.send("Escape")
        try ui.waitForScreen("the query cleared") { $0.contains("buy milk") && !$0.contains("query") }

        // The selection is on the newest todo: done, it leaves the pending list.
        try ui.send("x")
        try ui.waitForScreen("the todo marked done") { $0.contains("2 pending · 1 done") && !$0.contains("write the report") }
        // The selection moved to the next one: delete it, then undo.
        try ui.send("d")
        try ui.waitForScreen("the todo deleted") { $0.contains("1 pending · 1 done") && !$0.contains("call the bank") }
        try ui.send("u")
        try ui.waitForScreen("the delete undone") { $0.contains("call the bank") && $0.contains("Undid the delete") }

        _ = try todo.ok(["add", "from another terminal"])
        try ui.waitForScreen("the todo added elsewhere") { $0.contains("from another terminal") && $0.contains("3 pending") }

        try ui.resize(columns: 50, rows: 10)
        try ui.waitForScreen("the frame at the new size") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 10 && lines[0].hasSuffix("…") && lines[0].count == 50 && lines[9].hasPrefix(" Undid")
        }

        try ui.send("q")
        let (status, stty) = try ui.waitForExit()
        #expect(status == 0)
        expectRestored(stty)
        #expect(try !ui.screen().contains("from another terminal"), "the main screen is back")
    }

    /// `u` never takes back work done before the view opened (an import
    /// from the shell); what it takes back, `U` brings back.
    /// Subtasks start folded under their parent: Enter or → unfolds, ← folds.
    @Test func subtasksFoldUnderTheirParent() throws {
        let parent = try todo.ok(["add", "paint the room", "--json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(parent.utf8)) as? [String: Any])?["id"] as? String)
        _ = try todo.ok(["add", "buy paint", "--parent", String(id.prefix(8))])
        _ = try todo.ok(["add", "tape the edges", "--parent", String(id.prefix(8))])
        _ = try todo.ok(["add", "call mum"])
        let ui = try startUI()
        try ui.waitForScreen("the parent folded") { $0.contains("▸ 2 paint the room") && !$0.contains("buy paint") }
        try ui.send("j")
        try ui.send("Enter")
        try ui.waitForScreen("the parent unfolded") { $0.contains("▾ paint the room") && $0.contains("[ ]   tape the edges") && $0.contains("buy paint") }
        try ui.send("j")
        try ui.send("Left")
        try ui.waitForScreen("folded again from a subtask") { $0.contains("▸ 2 paint the room") && !$0.contains("tape the edges") }
        try ui.send("Right")
        try ui.waitForScreen("unfolded with →") { $0.contains("tape the edges") }
        // Completing the parent asks about its open subtasks; x again completes them too.
        try ui.send("x")
        try ui.waitForScreen("the question") { $0.contains("has 2 open subtasks: press x again to complete them too") }
        #expect(try todo.listJSON().count == 4, "nothing done yet")
        try ui.send("x")
        try ui.waitForScreen("all three done") { $0.contains("1 pending · 3 done") }
        try ui.send("q")
    }

    @Test func undoTakesBackOnlyThisViewsChangesAndRedoBringsThemBack() throws {
        _ = try todo.ok(["import", "-"], stdin: """
            [{"id":"abcd0000-0000-4000-8000-000000000001","text":"imported one","createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"abcd1000-0000-4000-8000-000000000002","text":"imported two","createdAt":"2026-01-02T00:00:00.000Z"}]
            """)
        let ui = try startUI()
        try ui.waitForScreen("the first frame") { $0.contains("2 pending") && $0.contains("imported two") }
        try ui.send("u")
        try ui.waitForScreen("undo refused") { $0.contains("nothing to undo made since this view opened") }
        #expect(try todo.listJSON().count == 2)
        try ui.send("Escape")
        try ui.send("x")
        try ui.waitForScreen("the todo marked done") { $0.contains("1 pending · 1 done") }
        try ui.send("u")
        try ui.waitForScreen("the done mark undone") { $0.contains("2 pending · 0 done") && $0.contains("Undid the done mark") }
        try ui.send("U")
        try ui.waitForScreen("the done mark redone") { $0.contains("1 pending · 1 done") && $0.contains("Redid the done mark") }
        try ui.send("q")
    }

    @Test func anAssistantsChangesThroughTodoMCPShowInAnOpenView() throws {
        let ui = try startUI()
        try ui.waitForScreen("the first frame") { $0.contains("0 pending") }
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let added = try mcp.call(1, "add_todo", ["text": "added by the assistant"])
        #expect(added["isError"] == nil)
        try ui.waitForScreen("the assistant's todo") { $0.contains("added by the assistant") && $0.contains("1 pending") }
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        _ = try mcp.call(2, "complete_todo", ["ids": [id]])
        try ui.waitForScreen("the assistant's done mark") { $0.contains("0 pending · 1 done") }
        try ui.send("q")
    }

    @Test func ctrlCSigtermAndACrashRestoreTheTerminal() throws {
        _ = try todo.ok(["add", "buy milk"])
        let interrupted = try startUI()
        try interrupted.waitForScreen("the first frame") { $0.contains("buy milk") }
        try interrupted.send("C-c")
        let (status, stty) = try interrupted.waitForExit()
        #expect(status == 0)
        expectRestored(stty)

        for (signal, expected) in [(SIGTERM, Int32(128 + SIGTERM)), (SIGILL, Int32(128 + SIGILL))] {
            try? FileManager.default.removeItem(atPath: todo.directory.appendingPathComponent("ui-stty").path)
            let ui = try startUI(environment: ["SWIFT_BACKTRACE": "enable=no"])
            try ui.waitForScreen("the first frame") { $0.contains("buy milk") }
            kill(try ui.commandPID(), signal)
            let (status, stty) = try ui.waitForExit()
            #expect(status == expected)
            expectRestored(stty)
        }
    }

    @Test func withoutATerminalItExits64WithOneLine() throws {
        // TodoProcess runs todo with pipes, not a terminal.
        let result = try todo.run(["ui"], environment: ["TERM": "xterm"])
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func onADumbTerminalItExits64WithOneLine() throws {
        let ui = try startUI(columns: 200, environment: ["TERM": "dumb"])
        let (status, stty) = try ui.waitForExit()
        #expect(status == 64)
        expectRestored(stty)
        let screen = try ui.screen().split(separator: "\n")
        #expect(screen.count == 1 && screen[0].hasPrefix("Error: todo ui cannot draw on TERM=dumb"), "\(screen)")
    }
}
