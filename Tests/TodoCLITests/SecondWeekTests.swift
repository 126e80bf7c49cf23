import Foundation
import Testing
import TestSupport

/// Issue 45's sharp edges from a second week of use (items 5 to 8), each
/// through the binary with the issue's reproduction.
@Suite("Sharp edges of a second week", .threadsOfTheirOwn)
struct SecondWeekTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// The todos of `export`, by text.
    func exported() throws -> [String: [String: Any]] {
        let array = try JSONSerialization.jsonObject(with: Data(try todo.ok(["export"]).utf8)) as? [[String: Any]] ?? []
        return Dictionary(array.map { ($0["text"] as? String ?? "", $0) }) { first, _ in first }
    }

    // MARK: 2. Taskwarrior's words

    /// The issue's `todo add "Call mum" due:tomorrow +family`: a date and a
    /// tag, said on standard error, not text.
    @Test func taskwarriorsWordsSetFieldsAndAreEchoed() throws {
        let added = try todo.run(["add", "Call mum", "due:tomorrow", "+family"])
        #expect(added.status == 0, "\(added.stderr)")
        let said = added.stderr.split(separator: "\n").last ?? ""
        #expect(said.hasPrefix("Read due:tomorrow as due ") && said.hasSuffix(", +family as tag family"), "\(added.stderr)")
        let mum = try #require(try exported()["Call mum"])
        #expect(mum["due"] as? String == CalendarDayText.tomorrow, "\(mum)")
        #expect(mum["tags"] as? [String] == ["family"])
        // After --, words are text.
        _ = try todo.ok(["add", "--", "note", "due:tomorrow", "+x"])
        #expect(try exported()["note due:tomorrow +x"]?["due"] is NSNull)
        // An edit: priority, a tag on and one off, in Taskwarrior's words.
        let id = String(try #require(mum["id"] as? String).prefix(8))
        _ = try todo.ok(["edit", id, "pri:H", "+urgent", "-family", "pro:home"])
        let edited = try #require(try exported()["Call mum"])
        #expect(edited["priority"] as? String == "high" && edited["tags"] as? [String] == ["urgent"], "\(edited)")
        #expect(edited["project"] as? String == "home")
        // A word that nearly is one stays text, with a hint; a bad value is refused, nothing written.
        let hinted = try todo.run(["add", "pay", "duw:fri"])
        #expect(hinted.status == 0 && hinted.stderr.hasPrefix("'duw:fri' is kept in the text: todo reads due:"), "\(hinted.stderr)")
        let before = try todo.ok(["export"])
        let bad = try todo.run(["add", "pay", "pri:X"])
        #expect(bad.status != 0 && bad.stderr == "Error: 'X' is not a priority: use high, medium, low or none\n", "\(bad.stderr)")
        let twice = try todo.run(["add", "pay", "due:fri", "--due", "mon"])
        #expect(twice.status != 0 && twice.stderr.contains("'due:fri' sets a field an option sets too"), "\(twice.stderr)")
        #expect(try todo.ok(["export"]) == before)
    }

    @Test func listFiltersByTaskwarriorsWords() throws {
        _ = try todo.add(["budget", "--project", "work", "--tag", "office", "--due", "today", "--priority", "high"])
        _ = try todo.add(["milk", "--tag", "errands"])
        func listed(_ words: [String]) throws -> [String] { try todo.listJSON(words).compactMap { $0["text"] as? String } }
        #expect(try listed(["+office"]) == ["budget"])
        #expect(try listed(["project:work"]) == ["budget"])
        #expect(try listed(["due:today"]) == ["budget"])
        #expect(try listed(["pri:H"]) == ["budget"])
        #expect(try listed(["-office"]) == ["milk"])
        let odd = try todo.run(["list", "status:pending"])
        #expect(odd.status == 64 && odd.stderr.contains("'status:pending' is not a filter todo list reads"), "\(odd.stderr)")
    }

    // MARK: 5. Counts agree

    /// `todo status` counts what `todo list` lists, waiting todos apart and
    /// one past its until date in neither; `list --all` lists every todo,
    /// the waiting one and the expired one marked.
    @Test func statusCountsWhatListListsAndAllListsEveryTodo() throws {
        _ = try todo.add(["milk"])
        _ = try todo.add(["call the bank", "--wait", "tomorrow"])
        _ = try todo.add(["concert tickets", "--until", "yesterday"])
        let done = try todo.add(["bread"])
        _ = try todo.ok(["done", done])
        let listed = try todo.ok(["list"]).split(separator: "\n")
        #expect(listed.count == 1 && listed[0].hasSuffix("milk"), "\(listed)")
        #expect(try todo.ok(["status"]).hasPrefix("1 pending, 1 waiting, 1 done\n"))
        let all = try todo.ok(["list", "--all"])
        #expect(all.split(separator: "\n").count == 4, "\(all)")
        #expect(all.contains("call the bank  (waiting)"), "\(all)")
        #expect(all.contains("concert tickets  (past until)"), "\(all)")
        #expect(try todo.listJSON(["--all"]).count == 4)
        // --waiting lists the one the count calls waiting.
        #expect(try todo.listJSON(["--waiting"]).map { $0["text"] as? String } == ["call the bank"])
    }

    // MARK: 6. Dry runs show before and after

    @Test func dryRunsShowEachFieldBeforeAndAfterAndWriteNothing() throws {
        let id = try todo.add(["Email Bob", "--priority", "low"])
        let before = try todo.ok(["export"])
        let edit = try todo.ok(["edit", String(id.prefix(8)), "--priority", "high", "--tag", "urgent", "--dry-run"])
        #expect(edit.hasPrefix("Would edit "), "\(edit)")
        #expect(edit.contains("\n    priority: low → high\n") && edit.contains("\n    tags: none → urgent\n"), "\(edit)")
        let byFilter = try todo.ok(["tag", "--priority", "low", "--add", "work", "--dry-run"])
        #expect(byFilter.contains("\n    tags: none → work\n"), "\(byFilter)")
        let done = try todo.ok(["done", String(id.prefix(8)), "--dry-run"])
        #expect(done.contains("\n    done: false → true\n"), "\(done)")
        #expect(try todo.ok(["export"]) == before)
        _ = try todo.ok(["edit", String(id.prefix(8)), "--priority", "high"])
        let undo = try todo.ok(["undo", "--dry-run"])
        #expect(undo.hasPrefix("Would undo the edit of “Email Bob”; nothing was written"), "\(undo)")
        #expect(undo.contains("\n    priority: high → low\n"), "\(undo)")
        #expect(try exported()["Email Bob"]?["priority"] as? String == "high")
    }

    // MARK: 7. Undo without --force when nobody else touched the field

    /// A field changed since by someone else stops undo only if undo would
    /// put it back: another field is kept, and undo goes ahead unforced.
    @Test func undoRefusesOnlyForAFieldItWouldPutBack() throws {
        let id = try todo.add(["Email Bob"])
        _ = try todo.ok(["edit", String(id.prefix(8)), "--priority", "high"])
        // Another program (a sync) changes the note, straight in the file.
        try sqlite(todo.databasePath, "UPDATE todo SET note = 'from the phone' WHERE id = '\(id)'")
        #expect(try todo.ok(["undo"]) == "Undid the edit of “Email Bob”.\n")
        let after = try #require(try exported()["Email Bob"])
        #expect(after["priority"] is NSNull && after["note"] as? String == "from the phone", "\(after)")
        // The text, which undoing the add would take away with the todo, changed since: refused, naming it as it is now.
        try sqlite(todo.databasePath, "UPDATE todo SET text = 'Email Bob today' WHERE id = '\(id)'")
        let refused = try todo.run(["undo"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("“Email Bob today”") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try exported()["Email Bob today"] != nil)
    }

    func sqlite(_ path: String, _ sql: String) throws {
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/sqlite3"), [path, sql])
        #expect(result.status == 0, "\(result.err)")
    }

    // MARK: 8. The small surprises

    @Test func aTodosIDWhereACommandGoesSaysTodoShow() throws {
        let id = try todo.add(["Email Bob"])
        let short = String(id.prefix(4))
        let result = try todo.run([short])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: '\(short)' is the ID of “Email Bob”, not a command: to see it, run todo show \(short); to change it, todo edit \(short)\n")
        // A word that is no todo's ID is still offered as a todo to add.
        #expect(try todo.run(["zzzz"]).stderr.contains("to add a todo, run todo add zzzz"))
    }

    /// An ID near a command's name (`ed94` is two edits from `edit`) is still
    /// the todo's; a word shorter than four near a command stays its typo.
    @Test func anIDNearACommandIsStillTheTodos() throws {
        _ = try todo.ok(["import", "-"], stdin: """
            [{"id":"ed94a000-0000-4000-8000-000000000001","text":"Email Bob","createdAt":"2026-01-01T00:00:00Z"},
             {"id":"dd00a000-0000-4000-8000-000000000002","text":"Call Ann","createdAt":"2026-01-01T00:00:00Z"}]
            """)
        let result = try todo.run(["ed94"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: 'ed94' is the ID of “Email Bob”, not a command: to see it, run todo show ed94; to change it, todo edit ed94\n")
        #expect(try todo.run(["dd"]).stderr.contains("did you mean 'add'?"))
    }

    @Test func aProjectThatDiffersOnlyInCaseIsSaid() throws {
        _ = try todo.add(["budget", "--project", "work"])
        let result = try todo.run(["list", "--project", "Work"])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderr == "No todo is in project “Work”; projects match their case, and there is “work” (todo list --project work)\n")
        // The project as stored says nothing more.
        #expect(try todo.run(["list", "--project", "work"]).stderr.isEmpty)
    }

    /// `todo import <(task export)`: the file is a pipe, read as it comes.
    @Test func anImportReadsAPipe() throws {
        let json = #"[{"uuid":"6fa0d0a4-1111-4111-8111-111111111111","description":"from a pipe","status":"pending","entry":"20260101T000000Z"}]"#
        let file = todo.directory.appendingPathComponent("tasks.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TODO_DATABASE"] = todo.databasePath
        let result = try runProgram(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", #""$0" import --from taskwarrior <(cat "$1")"#, TodoProcess.executable.path, file.path], environment: environment
        )
        #expect(result.status == 0, "\(result.err)")
        #expect(try exported()["from a pipe"] != nil)
    }

    @Test func aSubtaskTakesItsParentsProjectUnlessGivenOne() throws {
        let parent = try todo.add(["move house", "--project", "home"])
        _ = try todo.add(["pack books", "--parent", String(parent.prefix(8))])
        _ = try todo.add(["tell work", "--parent", String(parent.prefix(8)), "--project", "work"])
        let todos = try exported()
        #expect(todos["pack books"]?["project"] as? String == "home")
        #expect(todos["tell work"]?["project"] as? String == "work")
    }

    /// `todo done` on a done todo says so and writes nothing: its completion
    /// time stays, and there is no change to undo.
    @Test func doneOnADoneTodoSaysAlreadyDoneAndWritesNothing() throws {
        let id = try todo.add(["Email Bob"])
        _ = try todo.ok(["done", String(id.prefix(8))])
        let before = try todo.ok(["export"])
        let again = try todo.ok(["done", String(id.prefix(8))])
        #expect(again.hasPrefix("Already done "), "\(again)")
        #expect(try todo.ok(["export"]) == before)
        #expect(try todo.ok(["undo", "--list"]).split(separator: "\n").count == 2)
    }

    /// `todo annotate` adds a dated line to the note, as an imported
    /// Taskwarrior annotation reads.
    @Test func annotateAddsADatedLineAsImportedAnnotationsRead() throws {
        _ = try todo.ok(["import", "--from", "taskwarrior", "-"], stdin: """
            [{"uuid":"6fa0d0a4-1111-4111-8111-111111111111","description":"Email Bob","status":"pending","entry":"20260101T000000Z",
              "annotations":[{"entry":"20260102T120000Z","description":"asked for the numbers"}]}]
            """)
        let annotated = try todo.ok(["annotate", "6fa0", "called", "him"])
        #expect(annotated.hasPrefix("Annotated 6fa0"), "\(annotated)")
        let note = try #require(try exported()["Email Bob"]?["note"] as? String)
        #expect(note == "2026-01-02 asked for the numbers\n\(CalendarDayText.today) called him", "\(note)")
        let empty = try todo.run(["annotate", "6fa0"])
        #expect(empty.status == 64 && empty.stderr.hasPrefix("Error: nothing to add: give the text after the ID"), "\(empty.stderr)")
    }
}
