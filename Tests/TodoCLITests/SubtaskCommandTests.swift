import Foundation
import Testing
import TodoCore
import TestSupport

/// Subtasks and blockers through the `todo` binary: add and edit with
/// --parent, --blocked-by and --unblock; the list's tree; completing a
/// parent; cycles refused in one line with nothing written; `todo next`
/// leaving blocked todos out; show, JSON, undo.
@Suite("todo subtasks and blockers", .threadsOfTheirOwn)
struct SubtaskCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Adds a todo and returns its full ID.
    func add(_ arguments: [String]) throws -> String { try todo.add(arguments) }

    func short(_ id: String) -> String { String(id.prefix(8)) }

    @Test func subtasksListUnderTheirParentAndBlockedOnesSayByWhat() throws {
        let room = try add(["paint the room"])
        let buy = try add(["buy paint", "--parent", short(room)])
        let tape = try add(["tape the edges", "--parent", short(room), "--blocked-by", short(buy)])
        _ = try add(["call mum"])
        let lines = try todo.ok(["list"]).split(separator: "\n").map { String($0.dropFirst(4).drop { $0 != " " }.dropFirst(2)) }
        #expect(lines == ["call mum", "paint the room", "  tape the edges  blocked by \(buy.prefix(4))", "  buy paint"])
        // Filtered, a subtask without its parent stands on its own.
        #expect(try todo.ok(["list", "--query", "tape"]).contains("  tape the edges  blocked by"))
        let json = try todo.listJSON(["--query", "tape"])
        #expect(json.first?["parent"] as? String == room)
        #expect(json.first?["blockedBy"] as? [String] == [buy])
        let show = try todo.ok(["show", tape])
        #expect(show.contains("Parent     \(short(room)) “paint the room”\n"))
        #expect(show.contains("Blocked by \(short(buy)) “buy paint”\n"))
        #expect(try todo.ok(["show", room]).contains("Subtasks   "))
        // Its blocker done, it is blocked no more.
        _ = try todo.ok(["done", buy])
        #expect(!(try todo.ok(["list"]).contains("blocked by")))
        // --unblock and --parent none take the links away; undo brings them back.
        _ = try todo.ok(["edit", tape, "--unblock", short(buy), "--parent", "none"])
        #expect(try todo.listJSON(["--query", "tape"]).first?["parent"] is NSNull)
        _ = try todo.ok(["undo"])
        #expect(try todo.listJSON(["--query", "tape"]).first?["parent"] as? String == room)
    }

    /// A deleted parent is named nowhere: `show --json`, `list --json`,
    /// `export`, `edit --json` and `next --json` all give `parent: null`, as
    /// `show` says "Parent none"; undoing the delete puts the subtask back under it.
    @Test func aDeletedParentIsNamedNowhere() throws {
        let room = try add(["paint the room"])
        let buy = try add(["buy paint", "--parent", short(room)])
        _ = try todo.ok(["rm", room])
        func parent(_ json: String) throws -> Any? {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            let todo = (object as? [[String: Any]])?.first { $0["id"] as? String == buy } ?? object as? [String: Any]
            return try #require(todo)["parent"]
        }
        #expect(try todo.ok(["show", buy]).contains("Parent     none\n"))
        #expect(try parent(try todo.ok(["show", buy, "--json"])) is NSNull)
        #expect(try parent(try todo.ok(["list", "--json"])) is NSNull)
        #expect(try parent(try todo.ok(["export"])) is NSNull)
        #expect(try parent(try todo.ok(["next", "--json"])) is NSNull)
        #expect(try parent(try todo.ok(["edit", buy, "--priority", "high", "--json"])) is NSNull)
        // The edit's undo, then the delete's: back under its parent.
        _ = try todo.ok(["undo"])
        _ = try todo.ok(["undo"])
        #expect(try parent(try todo.ok(["show", buy, "--json"])) as? String == room)
        #expect(try parent(try todo.ok(["export"])) as? String == room)
    }

    /// Whatever the order, every listed todo is printed once: a subtask that
    /// comes after its parent (sorted by due date) goes where it comes,
    /// indented; a grandchild goes under its parent; --limit cuts first.
    @Test func everyOrderPrintsEveryTodoOnce() throws {
        let root = try add(["root", "--due", "2030-01-05"])
        let child = try add(["child", "--parent", short(root), "--due", "2030-01-09"])
        _ = try add(["grandchild", "--parent", short(child), "--due", "2030-01-01"])
        _ = try add(["loose", "--due", "2030-01-07"])
        func lines(_ arguments: [String]) throws -> [String] {
            try todo.ok(["list"] + arguments).split(separator: "\n").map { line in
                let text = String(line.dropFirst(4).drop { $0 != " " }.dropFirst(2))
                return text.components(separatedBy: "  due ")[0]
            }
        }
        #expect(try lines([]) == ["loose", "root", "  child", "    grandchild"])
        let byDue = try lines(["--sort", "due"])
        #expect(byDue.map { $0.trimmingCharacters(in: .whitespaces) }.sorted() == ["child", "grandchild", "loose", "root"])
        #expect(byDue.first == "root" || byDue.first == "    grandchild")
        #expect(try lines(["--limit", "2"]).count == 2)
        #expect(try lines(["--query", "child"]) == ["child", "  grandchild"])
    }

    @Test func completingAParentWithOpenSubtasksIsRefusedOffATerminal() throws {
        let room = try add(["paint the room"])
        _ = try add(["buy paint", "--parent", short(room)])
        let refused = try todo.run(["done", short(room)])
        #expect(refused.status != 0)
        #expect(refused.stderr == "Error: “paint the room” (\(short(room))) has 1 open subtask: add --with-subtasks to complete it too, or complete it first\n")
        #expect(try todo.listJSON().count == 2, "nothing done")
        let done = try todo.ok(["done", short(room), "--with-subtasks"])
        #expect(done.contains("Done") && done.contains("paint the room") && done.contains("buy paint"))
        #expect(try todo.listJSON().isEmpty)
        // One undo takes both back.
        _ = try todo.ok(["undo"])
        #expect(try todo.listJSON().count == 2)
    }

    @Test func aRepeatingParentBringsItsSubtasksAlong() throws {
        let weekly = try add(["clean the flat", "--due", "today", "--repeat", "weekly"])
        _ = try add(["kitchen", "--parent", short(weekly)])
        _ = try todo.ok(["done", short(weekly), "--with-subtasks"])
        let pending = try todo.listJSON()
        #expect(Set(pending.compactMap { $0["text"] as? String }) == ["clean the flat", "kitchen"])
        let next = try #require(pending.first { $0["text"] as? String == "clean the flat" }?["id"] as? String)
        #expect(pending.first { $0["text"] as? String == "kitchen" }?["parent"] as? String == next)
    }

    @Test func cyclesAndBadLinksAreRefusedInOneLineWritingNothing() throws {
        let a = try add(["first"])
        let b = try add(["second", "--parent", short(a)])
        let before = try todo.ok(["export"])
        let cycle = try todo.run(["edit", short(a), "--parent", short(b)])
        #expect(cycle.status != 0)
        // The cycle is named from the todo being changed.
        let around = "\(a.prefix(4)) “first” subtask of \(b.prefix(4)) “second” subtask of \(a.prefix(4)) “first”"
        #expect(cycle.stderr == "Error: refused: that would make a cycle, \(around); remove one of these links first (todo edit ID --parent none)\n")
        _ = try todo.ok(["edit", short(a), "--blocked-by", short(b)])
        let blockers = try todo.run(["edit", short(b), "--blocked-by", short(a)])
        #expect(blockers.status != 0 && blockers.stderr.contains("blocked by") && blockers.stderr.hasSuffix("(todo edit ID --unblock ID)\n"))
        _ = try todo.ok(["edit", short(a), "--unblock", short(b)])
        let after = try todo.ok(["export"])
        for (arguments, message) in [
            (["edit", short(a), "--parent", short(a)], "Error: a todo cannot be its own parent: give --parent another todo's ID\n"),
            (["edit", short(a), "--blocked-by", short(a)], "Error: a todo cannot block itself: give --blocked-by another todo's ID\n"),
            (["add", "x", "--parent", "ffffffff"], "Error: no todo has an ID starting with 'ffffffff': run todo list --all to see IDs\n"),
            (["add", "x", "--blocked-by", "zz"], "Error: 'zz' is not a todo ID: IDs are hexadecimal, as shown by todo list\n"),
        ] {
            let result = try todo.run(arguments)
            #expect(result.status != 0 && result.stderr == message, "\(arguments)")
        }
        #expect(try todo.ok(["export"]) == after)
        #expect(before != after)
        // An import whose links make a cycle is refused whole.
        let file = todo.directory.appendingPathComponent("cycle.json")
        try Data("""
            [{"id":"10000000-0000-4000-8000-000000000001","text":"x","createdAt":"2026-01-01T00:00:00Z","parent":"10000000-0000-4000-8000-000000000002"},
             {"id":"10000000-0000-4000-8000-000000000002","text":"y","createdAt":"2026-01-01T00:00:00Z","parent":"10000000-0000-4000-8000-000000000001"}]
            """.utf8).write(to: file)
        let imported = try todo.run(["import", file.path])
        #expect(imported.status != 0)
        #expect(imported.stderr == "Error: \(file.path): its links make a cycle, 10000000 subtask of 10000000 subtask of 10000000; fix the file's parent or blockedBy there; nothing was imported\n")
        #expect(try todo.ok(["export"]) == after)
    }

    /// A file of 50,000 todos, each the subtask of the one before: imported
    /// (its links checked through every todo, once), listed oldest at the top
    /// however deep (the rows wait for their parents without a recursion),
    /// and a link that closes the chain is refused.
    @Test func aChainFiftyThousandDeepImportsAndLists() throws {
        let count = 50_000
        func id(_ number: Int) -> String { String(format: "%08d-0000-4000-8000-000000000000", number) }
        func line(_ number: Int, parent: Int?) -> String {
            let minutes = String(format: "%02d:%02d:%02d", number / 3600, number / 60 % 60, number % 60)
            return #"{"id":"\#(id(number))","text":"step \#(number)","createdAt":"2026-01-01T\#(minutes)Z""#
                + (parent.map { #","parent":"\#(id($0))""# } ?? "") + "}"
        }
        let file = todo.directory.appendingPathComponent("chain.json")
        try Data(("[" + (1...count).map { line($0, parent: $0 == 1 ? nil : $0 - 1) }.joined(separator: ",\n") + "]").utf8).write(to: file)
        #expect(try todo.ok(["import", file.path]) == "Imported \(count) new todos, updated 0, kept 0 unchanged\n")
        let steps = try todo.ok(["list"]).split(separator: "\n").map { $0.split(separator: " ").suffix(2).joined(separator: " ") }
        #expect(steps == (1...count).map { "step \($0)" })
        try Data(("[" + line(1, parent: count) + "]").utf8).write(to: file)
        let closing = try todo.run(["import", file.path])
        #expect(closing.status != 0)
        #expect(closing.stderr == "Error: \(file.path): its links make a cycle, 00000001 subtask of 00050000 subtask of 00049999 subtask of "
            + "00049998 subtask of … 49994 more … subtask of 00000003 subtask of 00000002 subtask of 00000001; "
            + "fix the file's parent or blockedBy there; nothing was imported\n")
    }

    @Test func aDeletedBlockerShowsAndCanBeTakenAway() throws {
        let blocker = try add(["order the parts"])
        let blocked = try add(["build the shelf", "--blocked-by", short(blocker)])
        _ = try todo.ok(["rm", blocker])
        #expect(try todo.ok(["show", blocked]).contains("Blocked by \(short(blocker)) (deleted)\n"))
        #expect(!(try todo.ok(["list"]).contains("blocked by")), "a deleted blocker blocks nothing")
        _ = try todo.ok(["edit", short(blocked), "--unblock", short(blocker)])
        #expect(try todo.listJSON().first?["blockedBy"] as? [String] == [])
    }

    @Test func nextLeavesBlockedTodosOutAndRanksBlockersUp() throws {
        let blocker = try add(["order the parts"])
        let blocked = try add(["build the shelf", "--priority", "high", "--blocked-by", short(blocker)])
        let next = try todo.ok(["next"])
        #expect(next.contains("order the parts") && !next.contains("build the shelf"))
        #expect(next.hasPrefix("  8.0"))
        #expect(try todo.ok(["next", "--why", short(blocker)]).contains("blocking  blocks 1 open todo"))
        #expect(try todo.ok(["next", "--why", short(blocked)]).contains("todo next leaves it out: it is blocked by \(blocker.prefix(4)) “order the parts”."))
        _ = try todo.ok(["done", blocker])
        #expect(try todo.ok(["next"]).contains("build the shelf"))
    }
}
