import Foundation
import Testing
import TodoCore

/// Importing the same Taskwarrior data again, with the real `task`: a
/// re-import takes only what Taskwarrior changed since the last import, so
/// an edit made here in between stays (issue 45, item 1).
extension InterchangeToolTests {
    /// `task export`, piped into `todo import --from taskwarrior -` (extra arguments before the `-`).
    func importTaskwarrior(_ task: ([String]) throws -> String, _ arguments: [String] = []) throws -> TodoProcess.Result {
        try todo.run(["import", "--from", "taskwarrior"] + arguments + ["-"], stdin: try task(["export"]), environment: ["TZ": Self.zone])
    }

    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func aReimportKeepsWhatWasEditedHereAndTakesWhatTaskwarriorChanged() throws {
        let task = try taskwarrior()
        _ = try task(["add", "Email Bob", "priority:L"])
        _ = try task(["add", "Buy stamps"])
        #expect(try importTaskwarrior(task).stdout == "Imported 2 new todos, updated 0, kept 0 unchanged\n")
        let bob = try #require(try contents().first { $0.text == "Email Bob" })
        let id = String(bob.idString.prefix(8))

        // The reproduction: an edit here, then one in Taskwarrior.
        #expect(try runTodo(["edit", id, "--priority", "high", "--tag", "urgent"]).status == 0)
        _ = try task(["1", "modify", "Email Bob about the budget"])

        // A dry run says what would change, before → after, and writes nothing.
        let before = try contents()
        let dry = try importTaskwarrior(task, ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == """
            Would import 0 new todos, update 1, keep 1 unchanged; nothing was written (without --dry-run, it is)
            ~ \(id) Email Bob
                text: Email Bob → Email Bob about the budget

            """)
        #expect(try contents() == before)

        let again = try importTaskwarrior(task)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "Imported 0 new todos, updated 1, kept 1 unchanged\n")
        let merged = try #require(try contents().first { $0.id == bob.id })
        #expect(merged.text == "Email Bob about the budget")
        #expect(merged.priority == .high)
        #expect(merged.tags == ["urgent"])

        // The same export again changes nothing: Taskwarrior's low priority
        // is old news, and the edit here stays.
        #expect(try importTaskwarrior(task).stdout == "Imported 0 new todos, updated 0, kept 2 unchanged\n")
        #expect(try contents().first { $0.id == bob.id } == merged)
    }

    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func aFieldChangedOnBothSidesIsAConflictTheLaterEditWins() throws {
        let task = try taskwarrior()
        _ = try task(["add", "Call the plumber", "due:2026-12-10"])
        _ = try importTaskwarrior(task)
        let plumber = try #require(try contents().first)
        let id = String(plumber.idString.prefix(8))

        // Here first, Taskwarrior later: Taskwarrior's due date wins, and the conflict is said.
        #expect(try runTodo(["edit", id, "--due", "2026-12-11"]).status == 0)
        Thread.sleep(forTimeInterval: 1.1)  // Taskwarrior's modified time is in whole seconds
        _ = try task(["1", "modify", "due:2026-12-12"])
        let first = try importTaskwarrior(task)
        #expect(first.stdout == """
            Imported 0 new todos, updated 1, kept 0 unchanged
            Conflict on \(id) “Call the plumber”: due is 2026-12-11 here, 2026-12-12 in the file; took the file's, the later edit

            """)
        #expect(try contents().first?.due == .day(Self.day("2026-12-12")))

        // Taskwarrior first, here later: the edit here stays.
        _ = try task(["1", "modify", "due:2026-12-13"])
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try runTodo(["edit", id, "--due", "2026-12-14"]).status == 0)
        let second = try importTaskwarrior(task)
        #expect(second.stdout == """
            Imported 0 new todos, updated 0, kept 1 unchanged
            Conflict on \(id) “Call the plumber”: due is 2026-12-14 here, 2026-12-13 in the file; kept here's, the later edit

            """)
        #expect(try contents().first?.due == .day(Self.day("2026-12-14")))
    }

    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func anUndoneImportIsForgottenSoTheSameImportAgainAppliesAgain() throws {
        let task = try taskwarrior()
        _ = try task(["add", "Renew passport"])
        _ = try importTaskwarrior(task)
        _ = try task(["1", "modify", "priority:H"])
        #expect(try importTaskwarrior(task).stdout == "Imported 0 new todos, updated 1, kept 0 unchanged\n")
        #expect(try contents().first?.priority == .high)

        // Undo takes the update back, and what that import saw with it.
        #expect(try runTodo(["undo"]).status == 0)
        #expect(try contents().first?.priority == nil)
        #expect(try importTaskwarrior(task).stdout == "Imported 0 new todos, updated 1, kept 0 unchanged\n")
        #expect(try contents().first?.priority == .high)

        // Undone and redone: what it saw comes back with it.
        #expect(try runTodo(["undo"]).status == 0)
        #expect(try runTodo(["redo"]).status == 0)
        #expect(try importTaskwarrior(task).stdout == "Imported 0 new todos, updated 0, kept 1 unchanged\n")
    }
}
