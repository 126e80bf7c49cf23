import Foundation
import Testing
import TodoCore
import TestSupport

/// Projects and the wait, scheduled and until dates through the `todo`
/// binary: add, edit, show, list with --project and --waiting, `todo
/// projects`, and bad values refused in one line with nothing written.
@Suite("todo projects and wait, scheduled, until", .threadsOfTheirOwn)
struct ProjectAndDatesCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Adds a todo and returns its full ID.
    func add(_ arguments: [String]) throws -> String { try todo.add(arguments) }

    func texts(_ arguments: [String] = []) throws -> [String] {
        try todo.listJSON(arguments).compactMap { $0["text"] as? String }
    }

    @Test func projectsFilterWithTheirSubProjectsAndShowAsATree() throws {
        _ = try add(["fix sink", "--project", "home"])
        _ = try add(["prune roses", "--project", "home.garden"])
        _ = try add(["water lawn", "--project", "home.garden"])
        _ = try add(["essay", "--project", "homework"])
        let done = try add(["file taxes", "--project", "work.admin"])
        _ = try todo.ok(["done", done])
        _ = try add(["milk"])

        #expect(try texts(["--project", "home"]) == ["water lawn", "prune roses", "fix sink"])
        #expect(try texts(["--project", "home.garden"]) == ["water lawn", "prune roses"])
        #expect(try texts(["--project", "none"]) == ["milk"])
        #expect(try texts(["--project", "work", "--all"]) == ["file taxes"])
        #expect(try todo.ok(["list", "--project", "homework"]).contains("essay  +homework"))

        #expect(try todo.ok(["projects"]) == "home      3\n  garden  2\nhomework  1\n")
        let json = try JSONSerialization.jsonObject(with: Data(try todo.ok(["projects", "--json"]).utf8)) as? [[String: Any]]
        #expect(json?.map { "\($0["project"]!) \($0["pending"]!) \($0["own"]!)" } == ["home 3 1", "home.garden 2 2", "homework 1 1"])
    }

    @Test func waitingTodosHideUntilTheirDateAndExpiredOnesForGood() throws {
        let later = try add(["report", "--wait", "in 3 days", "--project", "work"])
        _ = try add(["old offer", "--until", "yesterday", "--project", "sales"])
        _ = try add(["gone soon", "--until", "tomorrow", "--scheduled", "today"])
        _ = try add(["shown", "--wait", "yesterday"])

        #expect(try texts() == ["shown", "gone soon"])
        // --all lists every todo, as Taskwarrior's all does: the waiting one and the expired one too.
        #expect(try texts(["--all"]) == ["shown", "gone soon", "old offer", "report"])
        #expect(try texts(["--waiting"]) == ["report"])
        // Waiting todos count in `todo projects`; those past their until date do not.
        #expect(try todo.ok(["projects"]) == "work  1\n")
        // Its wait cleared, it shows.
        _ = try todo.ok(["edit", later, "--wait", "none"])
        #expect(try texts() == ["shown", "gone soon", "report"])
        let shown = try todo.ok(["show", later])
        #expect(shown.contains("Project    work\n") && shown.contains("Wait       none\n") && shown.contains("Scheduled  none\n"))
    }

    @Test func theFieldsAreInJSONAndEditsClearThem() throws {
        let id = try add(["prune roses", "--project", "home.garden", "--scheduled", "2030-03-01", "--wait", "2030-02-20 08:00", "--until", "2030-04-30"])
        let item = try #require(try todo.listJSON(["--waiting"]).first)
        #expect(item["project"] as? String == "home.garden")
        #expect(item["scheduled"] as? String == "2030-03-01")
        #expect((item["wait"] as? String)?.hasPrefix("2030-02-2") == true)
        #expect(item["until"] as? String == "2030-04-30")
        _ = try todo.ok(["edit", id, "--project", "none", "--scheduled", "none", "--until", "none", "--wait", "none"])
        let cleared = try #require(try todo.listJSON().first)
        for key in ["project", "scheduled", "wait", "until"] { #expect(cleared[key] is NSNull, "\(key)") }
        // Undo puts every field back; redo clears them again.
        _ = try todo.ok(["undo"])
        let back = try #require(try todo.listJSON(["--waiting"]).first)
        #expect(back["project"] as? String == "home.garden" && back["until"] as? String == "2030-04-30")
        #expect((back["wait"] as? String)?.hasPrefix("2030-02-2") == true && back["scheduled"] as? String == "2030-03-01")
        _ = try todo.ok(["redo"])
        #expect(try todo.listJSON().first?["project"] is NSNull)
    }

    @Test(arguments: [
        (["add", "x", "--project", "home..garden"], "'home..garden' is not a project"),
        (["add", "x", "--project", "my home"], "'my home' is not a project"),
        (["add", "x", "--wait", "nxt tuseday"], "did you mean 'next tuesday'?"),
        (["add", "x", "--scheduled", "sometime"], "'sometime' is not a date for --scheduled"),
        (["add", "x", "--until", "2026-13-01"], "is not a date for --until"),
        (["list", "--project", "a,b"], "'a,b' is not a project"),
    ])
    func badValuesAreOneLineAndWriteNothing(arguments: [String], message: String) throws {
        let result = try todo.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Created a new todo database") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(try todo.listJSON(["--all"]).isEmpty)
    }
}
