import Foundation
import Testing
import TestSupport

/// Due dates, priority, tags and notes through the `todo` binary: add, edit,
/// show, list with its filters and sorts, JSON, and every bad input refused.
@Suite("todo planning fields", .threadsOfTheirOwn)
struct PlanningCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Adds a todo and returns its full ID.
    func add(_ arguments: [String]) throws -> String { try todo.add(arguments) }

    func texts(_ arguments: [String]) throws -> [String] {
        try todo.listJSON(arguments).compactMap { $0["text"] as? String }
    }

    @Test func addKeepsEveryFieldAndJSONShowsThemAfterTheOldKeys() throws {
        let output = try todo.ok([
            "add", "pay", "rent", "--due", "2030-12-01", "--priority", "high", "--tag", "home", "--tag", "bills",
            "--note", "IBAN in mail\nsecond line", "--repeat", "monthly", "--json",
        ])
        // The old keys first, in their order, then the new ones.
        let keys = ["id", "text", "done", "createdAt", "updatedAt", "completedAt", "due", "priority", "tags", "note", "repeat"]
        let positions = keys.map { output.range(of: "\"\($0)\":")?.lowerBound }
        #expect(!positions.contains(nil) && positions.map { $0! } == positions.map { $0! }.sorted(), "\(output)")
        #expect(output.contains(#""due":"2030-12-01","priority":"high","tags":["bills","home"],"note":"IBAN in mail\nsecond line","repeat":"monthly","#))
        let plain = try todo.listJSON().first
        #expect(plain?["tags"] as? [String] == ["bills", "home"])
        // A todo without them has nulls and an empty array.
        let bare = try todo.ok(["add", "milk", "--json"])
        #expect(bare.hasSuffix(
            #""completedAt":null,"due":null,"priority":null,"tags":[],"note":null,"repeat":null,"project":null,"wait":null,"scheduled":null,"until":null,"parent":null,"blockedBy":[],"start":null}"# + "\n"
        ))
    }

    @Test func aTimeIsLocalToTheTimeZoneAndShownInIt() throws {
        let berlin = ["TZ": "Europe/Berlin"]
        let result = try todo.run(["add", "call", "--due", "2030-07-01T14:30", "--json"], environment: berlin)
        #expect(result.stdout.contains(#""due":"2030-07-01T12:30:00.000Z""#), "\(result)")
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        let shown = try todo.run(["show", id], environment: berlin).stdout
        #expect(shown.contains("Due        2030-07-01 14:30 Europe/Berlin (Mon), 2030-07-01T12:30:00.000Z\n"), "\(shown)")
        let listed = try todo.run(["list"], environment: ["TZ": "America/New_York"]).stdout
        #expect(listed.hasSuffix("  call  due 2030-07-01 08:30\n"), "\(listed)")
    }

    @Test func showListsEveryFieldWithTheNoteOnItsOwnLines() throws {
        let id = try add(["pay rent", "--due", "2030-12-01", "--priority", "m", "--tag", "home", "--note", "IBAN\nin mail", "--repeat", "2w"])
        let shown = try todo.ok(["show", id])
        #expect(shown.contains("Due        2030-12-01 (Sun)\n"), "\(shown)")
        #expect(shown.contains("Priority   medium\nTags       home\nRepeat     2w\n"), "\(shown)")
        #expect(shown.hasSuffix("Note\n  IBAN\n  in mail\n"), "\(shown)")
        let bare = try add(["milk"])
        let plain = try todo.ok(["show", bare])
        #expect(plain.contains("Due        none\nPriority   none\nTags       none\nRepeat     none\n"))
        #expect(plain.hasSuffix("Note       none\n"))
    }

    @Test func theListingShowsDuePriorityAndTagsCompactly() throws {
        _ = try add(["pay rent", "--due", "2030-12-01", "--priority", "high", "--tag", "home", "--tag", "bills"])
        _ = try add(["milk"])
        let lines = try todo.ok(["list"]).split(separator: "\n")
        #expect(lines[0].hasSuffix("  milk"))
        #expect(lines[1].hasSuffix("  pay rent  due 2030-12-01 !high #bills #home"), "\(lines)")
        let added = try todo.ok(["add", "tea", "--tag", "home"])
        #expect(added.hasSuffix("  tea  #home\n"))
    }

    @Test func fieldsThatDoNotFitGoUnderTheTextOnATerminal() throws {
        _ = try add(["a todo with a fairly long text", "--due", "2030-12-01", "--tag", "a\"b", "--tag", "zürich"])
        let piped = try todo.ok(["list"])
        #expect(piped.hasSuffix("  a todo with a fairly long text  due 2030-12-01 #a\"b #zürich\n"), "\(piped)")
        let command = "\(TodoProcess.executable.path) list"
        let narrow = try todo.run(
            ["-c", "script -qc '\(command)' /dev/null"], shell: true, environment: ["NO_COLOR": "1", "COLUMNS": "50"]
        ).stdout.replacingOccurrences(of: "\r", with: "")
        let lines = narrow.split(separator: "\n")
        #expect(lines.count == 2, "\(narrow)")
        #expect(lines.last.map { $0.hasPrefix("          due 2030-12-01 #a\"b #zürich") } == true, "\(narrow)")
        let wide = try todo.run(
            ["-c", "script -qc '\(command)' /dev/null"], shell: true, environment: ["NO_COLOR": "1", "COLUMNS": "120"]
        ).stdout.replacingOccurrences(of: "\r", with: "")
        #expect(wide.split(separator: "\n").count == 1, "\(wide)")
    }

    @Test func overdueIsRedOnATerminalOnly() throws {
        let tax = try add(["tax", "--due", "2020-01-01"])
        _ = try add(["rent", "--due", "2999-01-01"])
        let command = "\(TodoProcess.executable.path) list"
        let result = try todo.run(["-c", "script -qc '\(command)' /dev/null"], shell: true, environment: ["TERM": "xterm"])
        #expect(result.stdout.contains("\u{1B}[31mdue 2020-01-01\u{1B}[0m"), "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\u{1B}[31mdue 2999"))
        #expect(!(try todo.ok(["list"]).contains("\u{1B}")))
        // Done, it is no longer overdue.
        _ = try todo.ok(["done", tax])
        let all = try todo.run(["-c", "script -qc '\(command) --all' /dev/null"], shell: true, environment: ["TERM": "xterm"])
        #expect(all.stdout.contains("due 2020-01-01") && !all.stdout.contains("\u{1B}[31m"), "\(all.stdout.debugDescription)")
        #expect(!(try todo.ok(["show", tax]).contains("overdue")))
    }

    @Test func listFiltersCombineAndSort() throws {
        _ = try add(["old tax", "--due", "2020-01-01", "--priority", "low", "--tag", "bills"])
        _ = try add(["today's call", "--due", "today", "--tag", "work"])
        _ = try add(["far rent", "--due", "2999-01-01", "--priority", "high", "--tag", "bills", "--tag", "home"])
        _ = try add(["milk", "--tag", "home"])
        let done = try add(["paid", "--due", "2020-01-02", "--tag", "bills"])
        _ = try todo.ok(["done", done])
        #expect(try texts(["--due", "overdue"]) == ["old tax"])
        #expect(try texts(["--due", "overdue", "--all"]) == ["paid", "old tax"])
        #expect(try texts(["--due", "today"]) == ["today's call"])
        #expect(try texts(["--due", "2999-01-01"]) == ["far rent"])
        #expect(try texts(["--tag", "bills"]) == ["far rent", "old tax"])
        #expect(try texts(["--tag", "bills", "--tag", "home"]) == ["far rent"])
        #expect(try texts(["--priority", "high"]) == ["far rent"])
        #expect(try texts(["--sort", "due"]) == ["old tax", "today's call", "far rent", "milk"])
        #expect(try texts(["--sort", "priority", "--limit", "2"]) == ["far rent", "old tax"])
        #expect(try texts(["--sort", "due", "--query", "a", "--tag", "bills", "--all"]) == ["old tax", "paid", "far rent"])
        // The plain listing filters alike.
        #expect(try todo.ok(["list", "--tag", "home", "--sort", "due"]).split(separator: "\n").count == 2)

        // Filters that say not and none.
        #expect(try texts(["--not-tag", "bills"]) == ["milk", "today's call"])
        #expect(try texts(["--not-tag", "bills", "--not-tag", "work"]) == ["milk"])
        #expect(try texts(["--tag", "bills", "--not-tag", "home"]) == ["old tax"])
        #expect(try texts(["--priority", "none"]) == ["milk", "today's call"])
        #expect(try texts(["--priority", "none", "--sort", "priority"]) == ["milk", "today's call"])
        #expect(try texts(["--due", "none"]) == ["milk"])
        #expect(try texts(["--due", "none", "--sort", "due"]) == ["milk"])
        #expect(try texts(["--due-before", "today"]) == ["old tax"])
        #expect(try texts(["--due-after", "today", "--sort", "due"]) == ["far rent"])
        #expect(try texts(["--due-after", "2019-12-31", "--due-before", "tomorrow", "--all", "--sort", "due"]) == ["old tax", "paid", "today's call"])
        #expect(try texts(["--due", "2999-01-01", "--due-after", "today"]) == ["far rent"])
    }

    @Test func editChangesOnlyWhatItIsGivenAndNoneClears() throws {
        let id = try add(["pay rent", "--due", "2030-12-01", "--priority", "high", "--tag", "home", "--note", "IBAN", "--repeat", "monthly"])
        _ = try todo.ok(["edit", id, "--tag", "bills", "--untag", "home", "--priority", "low"])
        var item = try #require(try todo.listJSON().first)
        #expect(item["text"] as? String == "pay rent")
        #expect(item["tags"] as? [String] == ["bills"])
        #expect(item["priority"] as? String == "low")
        #expect(item["due"] as? String == "2030-12-01")
        _ = try todo.ok(["edit", id, "pay the rent", "--repeat", "none", "--due", "none", "--note", "none", "--priority", "none"])
        item = try #require(try todo.listJSON().first)
        #expect(item["text"] as? String == "pay the rent")
        for key in ["due", "priority", "note", "repeat"] { #expect(item[key] is NSNull, "\(key)") }
        #expect(item["tags"] as? [String] == ["bills"])
    }

    /// Repeats in words, with --count and --from-completion: stored as
    /// their rule, shown in the words they were given in, and completed
    /// into the next occurrence they name.
    @Test func repeatsInWords() throws {
        let weekdays = try add(["stand-up", "--due", "2030-12-06", "--repeat", "weekdays"])
        #expect(try todo.ok(["show", weekdays]).contains("Repeat     weekdays\n"))
        let rent = try add(["pay rent", "--due", "2030-11-29", "--repeat", "monthly on the last friday", "--count", "2"])
        #expect(try todo.ok(["show", rent]).contains("Repeat     monthly on the last friday, 2 times\n"))
        let plants = try add(["water plants", "--due", "2030-12-01", "--repeat", "every 3 days", "--from-completion"])
        #expect(try todo.listJSON(["--all"]).first { $0["id"] as? String == plants }?["repeat"] as? String
            == "FREQ=DAILY;INTERVAL=3;X-TODO-FROM=COMPLETION")
        _ = try todo.ok(["done", weekdays, rent])
        let open = try todo.listJSON([]).filter { $0["text"] as? String != "water plants" }
        #expect(open.compactMap { $0["due"] as? String }.sorted() == ["2030-12-09", "2030-12-27"], "\(open)")
        _ = try todo.ok(["edit", plants, "--repeat", "mon,thu"])
        #expect(try todo.ok(["show", plants]).contains("Repeat     mon,thu\n"))
        // --count and --from-completion change the todo's own repeat too.
        _ = try todo.ok(["edit", plants, "--count", "4", "--from-completion"])
        #expect(try todo.ok(["show", plants]).contains("Repeat     mon,thu, 4 times from completion\n"))
    }

    func expectRefused(_ arguments: [String], saying fragment: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try todo.run(["export"]).stdout
        let result = try todo.run(arguments)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try todo.run(["export"]).stdout == before, "the database changed", sourceLocation: sourceLocation)
    }

    @Test func everyBadValueIsOneLineAndWritesNothing() throws {
        let id = try add(["milk", "--tag", "home"])
        try expectRefused(["add", "x", "--due", "sometime"], saying: "'sometime' is not a due date: use today, tomorrow")
        try expectRefused(["add", "x", "--due", "2026-02-30"], saying: "is not a due date")
        try expectRefused(["add", "x", "--priority", "urgent"], saying: "'urgent' is invalid for '--priority <priority>'")
        try expectRefused(["add", "x", "--due"], saying: "Missing value for '--due <date>'")
        try expectRefused(["add", "x", "--tag", "two words"], saying: "is not one word")
        try expectRefused(["add", "x", "--tag", ""], saying: "a tag is empty")
        try expectRefused(["add", "x", "--repeat", "weekly"], saying: "needs a due date")
        try expectRefused(["add", "x", "--due", "fri", "--repeat", "often"], saying: "'often' is not a repeat")
        try expectRefused(["add", "x", "--due", "fri", "--repeat", "every 2 weeeks"], saying: "did you mean 'every 2 weeks'?")
        try expectRefused(["add", "x", "--due", "fri", "--count", "3"], saying: "give --repeat as well")
        try expectRefused(["add", "x", "--due", "fri", "--repeat", "weekly", "--count", "0"], saying: "--count 0 is out of range")
        try expectRefused(["edit", id, "--from-completion"], saying: "give --repeat as well")
        try expectRefused(["edit", id], saying: "nothing to change")
        try expectRefused(["edit", id, "--due", "whenever"], saying: "'whenever' is not a due date")
        try expectRefused(["edit", id, "--repeat", "daily"], saying: "needs a due date")
        try expectRefused(["list", "--due", "soon"], saying: "'soon' is not a due filter: use overdue, today")
        try expectRefused(["list", "--priority", "never"], saying: "'never' is invalid for '--priority <priority>'")
        try expectRefused(["list", "--tag", "home", "--not-tag", "home"], saying: "--tag home and --not-tag home leave nothing to list")
        try expectRefused(["list", "--due", "overdue", "--due-before", "fri"], saying: "leave no day to be due on")
        try expectRefused(["list", "--due-before", "2026-01-01", "--due-after", "2026-01-01"], saying: "leave no day to be due on")
        try expectRefused(["list", "--due-after", "sometime"], saying: "--due-after: 'sometime' is not a due date")
        try expectRefused(["list", "--not-tag", "a b"], saying: "is not one word")
        try expectRefused(["list", "--sort", "size"], saying: "size")
        try expectRefused(["list", "--tag", "a b"], saying: "is not one word")
    }
}
