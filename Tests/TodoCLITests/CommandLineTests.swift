import Foundation
import Testing
import TestSupport

/// The `todo` binary end to end, on a temporary database.
@Suite("todo command line", .threadsOfTheirOwn)
struct CommandLineTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    @Test func addListQueryDoneEditRemove() throws {
        // Given three todos
        let milk = try todo.ok(["add", "buy", "milk"])
        #expect(milk.hasPrefix("Added "))
        #expect(milk.hasSuffix("  buy milk\n"))
        _ = try todo.ok(["add", "Call the bank"])
        _ = try todo.ok(["add", "Crème brûlée"])
        // Then they list newest first, aligned, with short IDs
        let lines = try todo.ok(["list"]).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("[ ] ") && lines[0].hasSuffix("  Crème brûlée"))
        #expect(lines[2].hasSuffix("  buy milk"))
        // And a query matches case-insensitively, beyond ASCII
        #expect(try todo.ok(["list", "--query", "CRÈME"]).contains("Crème brûlée"))
        #expect(try todo.ok(["list", "-q", "MI"]).split(separator: "\n").count == 1)
        // When the milk is done
        let milkID = try #require(try todo.listJSON(["--query", "milk"]).first?["id"] as? String)
        let done = try todo.ok(["done", String(milkID.prefix(8))])
        #expect(done.hasPrefix("Done ") && done.hasSuffix("buy milk\n"))
        // Then it leaves the pending list and shows with --done and --all
        #expect(!(try todo.ok(["list"]).contains("milk")))
        #expect(try todo.ok(["list", "--done"]).contains("[x] "))
        #expect(try todo.ok(["list", "--all"]).split(separator: "\n").count == 3)
        // Undone brings it back; edit changes its text; rm deletes it
        _ = try todo.ok(["undone", milkID])
        #expect(try todo.ok(["list"]).contains("buy milk"))
        _ = try todo.ok(["edit", milkID, "buy oat milk"])
        #expect(try todo.ok(["show", milkID]).contains("Text       buy oat milk"))
        let removed = try todo.ok(["rm", milkID])
        #expect(removed.hasPrefix("Deleted "))
        #expect(try todo.listJSON(["--all"]).count == 2)
    }

    @Test func jsonOutputIsStableForScripts() throws {
        _ = try todo.ok(["add", "say \"hi\" \\ to Zoë"])
        let items = try todo.listJSON()
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(Set(item.keys) == [
            "id", "text", "done", "createdAt", "updatedAt", "completedAt", "due", "priority", "tags", "note", "repeat", "project",
            "wait", "scheduled", "until", "parent", "blockedBy", "start",
        ])
        #expect(item["text"] as? String == "say \"hi\" \\ to Zoë")
        #expect(item["done"] as? Bool == false)
        #expect(item["completedAt"] is NSNull)
        let id = try #require(item["id"] as? String)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        let created = try #require(item["createdAt"] as? String)
        #expect(created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        // show --json prints the same object
        let shown = try JSONSerialization.jsonObject(with: Data(try todo.ok(["show", id, "--json"]).utf8)) as? [String: Any]
        #expect(shown?["createdAt"] as? String == created)
        // an empty list is an empty array
        #expect(try todo.listJSON(["--done"]).isEmpty)
    }

    @Test func limitAndLastQuery() throws {
        for n in 1...5 { _ = try todo.ok(["add", "item \(n)"]) }
        #expect(try todo.ok(["list", "--limit", "2"]) .split(separator: "\n").count == 2)
        _ = try todo.ok(["list", "--query", "item 3"])
        #expect(try todo.ok(["list", "--last-query"]).hasSuffix("item 3\n"))
        #expect(try todo.ok(["list", "--last-query"]).split(separator: "\n").count == 1)
    }

    @Test func pipedOutputHasNoColour() throws {
        _ = try todo.ok(["add", "milk"])
        #expect(!(try todo.ok(["list"]).contains("\u{1B}")))
    }

    /// On a terminal (a pseudo-terminal from `script`), IDs are coloured,
    /// unless NO_COLOR is set.
    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        _ = try todo.ok(["add", "milk"])
        let command = "\(TodoProcess.executable.path) list"
        let coloured = try todo.run(["-c", "script -qc '\(command)' /dev/null"], shell: true)
        #expect(coloured.stdout.contains("\u{1B}[33m"), "\(coloured)")
        let plain = try todo.run(["-c", "script -qc '\(command)' /dev/null"], shell: true, environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("milk"))
        #expect(!plain.stdout.contains("\u{1B}"))
    }

    @Test func noSubcommandListsPending() throws {
        _ = try todo.ok(["add", "milk"])
        #expect(try todo.ok([]).contains("milk"))
    }

    @Test func databaseOptionBeforeOrAfterTheSubcommand() throws {
        let other = todo.directory.appendingPathComponent("other.sqlite").path
        _ = try todo.ok(["--database", other, "add", "tea"])
        _ = try todo.ok(["add", "coffee", "--database", other])
        #expect(try todo.ok(["--database", other, "list"]).split(separator: "\n").count == 2)
        #expect(try todo.ok(["--database=\(other)", "ls", "-q", "TEA"]).contains("tea"))
        // The default database (TODO_DATABASE here) was not touched.
        #expect(try todo.ok(["list"]).isEmpty)
    }

    @Test func exportAndImportRoundTrip() throws {
        _ = try todo.ok(["add", "milk"])
        _ = try todo.ok(["add", "bread"])
        let id = try #require(try todo.listJSON(["-q", "bread"]).first?["id"] as? String)
        _ = try todo.ok(["done", id])
        let exported = try todo.ok(["export"])
        let other = try TodoProcess()
        #expect(try other.ok(["import", "-"], stdin: exported).hasPrefix("Imported 2 new todos"))
        #expect(try other.ok(["export"]) == exported)
        // Importing the same file again changes nothing.
        #expect(try other.ok(["import", "-"], stdin: exported).contains("kept 2 unchanged"))
    }

    @Test func helpShowsExamplesForEveryCommand() throws {
        for command in ["add", "list", "done", "undone", "edit", "rm", "undo", "show", "export", "import"] {
            let help = try todo.ok([command, "--help"])
            #expect(help.contains("Example"), "todo \(command) --help has no example")
            #expect(help.contains("--database"))
        }
        #expect(try todo.ok(["--help"]).contains("SUBCOMMANDS"))
        #expect(try todo.ok(["--version"]) == "0.1.0\n")
    }
}
