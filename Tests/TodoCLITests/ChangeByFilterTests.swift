import Foundation
import Testing
import TestSupport

/// `done`, `undone`, `rm`, `tag` and `edit --where` change the todos filters
/// select: all in one change that one undo takes back; more than three only
/// with --yes away from a terminal; --dry-run changes nothing.
@Suite("Changing todos by filter", .threadsOfTheirOwn)
struct ChangeByFilterTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
        for index in 1...5 {
            _ = try todo.ok(["add", "errand \(index)", "--tag", "errands", "--due", index <= 4 ? "today" : "tomorrow"])
        }
        _ = try todo.ok(["add", "water plants", "--project", "home.garden"])
    }

    func texts(_ arguments: [String] = []) throws -> [String] {
        try todo.listJSON(arguments).compactMap { $0["text"] as? String }
    }

    @Test func doneByFilterAsksAboveThreeAndOneUndoTakesItBack() throws {
        let refused = try todo.run(["done", "--tag", "errands", "--due", "today"])
        #expect(refused.status != 0 && refused.stderr.contains("the filters select 4 todos to mark done: add --yes"), "\(refused.stderr)")
        #expect(try texts().count == 6, "nothing changed")

        let dry = try todo.ok(["done", "--tag", "errands", "--due", "today", "--dry-run"])
        // Each todo, and under it the field it would change.
        #expect(dry.split(separator: "\n").filter { $0.hasPrefix("Would mark done ") }.count == 4 && dry.hasPrefix("Would mark done "), "\(dry)")
        #expect(dry.split(separator: "\n").filter { $0 == "    done: false → true" }.count == 4, "\(dry)")
        #expect(try texts().count == 6)

        let done = try todo.ok(["done", "--tag", "errands", "--due", "today", "--yes"])
        #expect(done.split(separator: "\n").count == 4)
        #expect(try texts() == ["water plants", "errand 5"])
        #expect(try todo.ok(["undo"]).contains("5") == false)
        #expect(try texts().count == 6, "one undo brings back all four")

        // Three or fewer need no --yes.
        _ = try todo.ok(["done", "--project", "home"])
        #expect(try texts(["--done"]) == ["water plants"])
        _ = try todo.ok(["undone", "--project", "home"])
        #expect(try texts(["--done"]).isEmpty)
    }

    @Test func tagEditAndRemoveByFilter() throws {
        _ = try todo.ok(["tag", "--tag", "errands", "--add", "town", "--remove", "someday", "--yes"])
        #expect(try texts(["--tag", "town"]).count == 5)
        _ = try todo.ok(["edit", "--where", "--tag town --due tomorrow", "--priority", "high", "--project", "chores"])
        let five = try #require(try todo.listJSON(["--query", "errand 5"]).first)
        #expect(five["priority"] as? String == "high" && five["project"] as? String == "chores")
        #expect(try texts(["--priority", "high"]) == ["errand 5"])
        let dry = try todo.ok(["edit", "--where", "--tag town", "--untag", "errands", "--dry-run"])
        #expect(dry.hasPrefix("Would edit ") && !dry.contains("#errands"), "\(dry)")
        #expect(try texts(["--tag", "errands"]).count == 5, "a dry run changes nothing")
        _ = try todo.ok(["rm", "--tag", "town", "--yes"])
        #expect(try texts() == ["water plants"])
        _ = try todo.ok(["undo"])
        #expect(try texts().count == 6)
    }

    @Test(arguments: [
        (["done"], "give the IDs of the todos, or filters"),
        (["done", "abcd", "--tag", "errands"], "give IDs or filters, not both"),
        (["done", "--tag", "nothing"], "no todo passes these filters"),
        (["done", "abcd", "--all"], "--all widens a filter"),
        (["tag", "--tag", "errands"], "nothing to change: give --add TAG"),
        (["edit", "--where", "--tagg x", "--due", "fri"], "Unknown option '--tagg'"),
        (["edit", "--where", "--tag errands"], "nothing to change"),
        (["edit", "--where", "--tag errands --yes", "--due", "fri"], "--yes and --dry-run go outside"),
        (["rm", "--due", "sometime"], "is not a due filter"),
    ])
    func mistakesChangeNothing(arguments: [String], message: String) throws {
        let before = try todo.ok(["list", "--json", "--all"])
        let result = try todo.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try todo.ok(["list", "--json", "--all"]) == before)
    }
}
