import Foundation
import GRDB
import Testing
import TestSupport

/// Every bad input: one line on stderr, a non-zero exit, nothing written.
@Suite("todo refuses bad input", .threadsOfTheirOwn)
struct BadInputTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    func expectRefused(
        _ arguments: [String], saying fragment: String, stdin: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try todo.run(["export"]).stdout
        let result = try todo.run(arguments, stdin: stdin)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try todo.run(["export"]).stdout == before, "the database changed", sourceLocation: sourceLocation)
    }

    @Test func emptyBlankAndOversizedText() throws {
        _ = try todo.ok(["add", "milk"])
        try expectRefused(["add", ""], saying: "todo text is empty")
        try expectRefused(["add", "   "], saying: "todo text is empty")
        try expectRefused(["add", String(repeating: "x", count: 10_001)], saying: "the limit is 10000")
        try expectRefused(["add", "two\nlines"], saying: "one line")
        // A date of several words a shell split: the command line says to quote it.
        try expectRefused(["add", "milk", "--due", "next"], saying: #"in a shell, put a date of several words in quotes, like --due "next week""#)
        try expectRefused(["add", "milk", "--due", "mon", "--repeat", "weekly", "--parent", "ffffffff"], saying: "run todo list --all to see IDs")
        try expectRefused(["add", "tick", "--due", "mon", "--repeat", "FREQ=HOURLY"], saying: "is a rule todo does not follow")
        try expectRefused(["add"], saying: "Missing expected argument")
    }

    @Test func unknownAmbiguousAndMalformedIDs() throws {
        // Two todos whose IDs share no prefix we control: use a one-character
        // prefix that matches both by importing known IDs.
        let file = """
            [{"id":"abcd0000-0000-4000-8000-000000000001","text":"one","createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"abcd1000-0000-4000-8000-000000000002","text":"two","createdAt":"2026-01-02T00:00:00.000Z"}]
            """
        _ = try todo.ok(["import", "-"], stdin: file)
        try expectRefused(["done", "abcd"], saying: "matches 2 todos")
        try expectRefused(["done", "ffff"], saying: "no todo has an ID starting with 'ffff'")
        try expectRefused(["done", "abcd0", "ffff"], saying: "ffff")
        try expectRefused(["rm", "abcd0", "ffff"], saying: "ffff")
        try expectRefused(["edit", "ffff", "x"], saying: "ffff")
        try expectRefused(["edit", "abcd0", " "], saying: "todo text is empty")
        try expectRefused(["show", "zz"], saying: "is not a todo ID")
        try expectRefused(["list", "--limit", "0"], saying: "--limit must be at least 1")
    }

    @Test func unwritableLocation() throws {
        let blocker = todo.directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try todo.run(["add", "milk", "--database", blocker.path + "/sub/todo.sqlite"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot create the folder"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aFileThatIsNotADatabaseIsLeftUntouched() throws {
        let path = todo.directory.appendingPathComponent("notes.txt").path
        let content = Data(String(repeating: "my precious notes\n", count: 300).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        for arguments in [["add", "milk"], ["list"]] {
            let result = try todo.run(arguments + ["--database", path])
            #expect(result.status != 0)
            #expect(result.stderr.contains("is not a todo database"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aDatabaseFromANewerVersionIsRefusedUntouched() throws {
        _ = try todo.ok(["add", "milk"])
        let queue = try DatabaseQueue(path: todo.databasePath)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('9999_from_the_future')")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: todo.databasePath))
        for arguments in [["add", "bread"], ["list"]] {
            let result = try todo.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("newer version of todo"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: todo.databasePath)) == before)
    }

    @Test func malformedImportsImportNothing() throws {
        _ = try todo.ok(["add", "milk"])
        let good = #"{"id":"abcd0000-0000-4000-8000-000000000001","text":"ok","createdAt":"2026-01-01T00:00:00Z"}"#
        try expectRefused(["import", "-"], saying: "malformed or truncated", stdin: "[\(good), {\"id\":")
        try expectRefused(["import", "-"], saying: "todo 2 has no 'text'",
                          stdin: #"[\#(good), {"id":"abcd0000-0000-4000-8000-000000000002","createdAt":"2026-01-01T00:00:00Z"}]"#)
        try expectRefused(["import", "-"], saying: "repeats the ID", stdin: "[\(good), \(good)]")
        try expectRefused(["import", "-"], saying: "todo 1, field 'createdAt'",
                          stdin: #"[{"id":"abcd0000-0000-4000-8000-000000000001","text":"x","createdAt":"soon"}]"#)
        try expectRefused(["import", "-"], saying: "todo text is empty",
                          stdin: #"[{"id":"abcd0000-0000-4000-8000-000000000001","text":" ","createdAt":"2026-01-01T00:00:00Z"}]"#)
        try expectRefused(["import", "-"], saying: "an array of todos", stdin: "{}")
        try expectRefused(["import", todo.directory.appendingPathComponent("missing.json").path], saying: "cannot read")
    }
}

/// IDs named more than once, and prefixes that name several todos.
@Suite("todo and the IDs it is given", .threadsOfTheirOwn)
struct IDArgumentTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    @Test func theSameTodoNamedTwiceIsOneTodo() throws {
        _ = try todo.ok(["add", "milk"])
        _ = try todo.ok(["add", "bread"])
        let id = try #require(try todo.listJSON(["-q", "milk"]).first?["id"] as? String)
        let short = String(id.prefix(4)), longer = String(id.prefix(8))
        let done = try todo.ok(["done", short, longer, short])
        #expect(done.split(separator: "\n").count == 1 && done.hasPrefix("Done "), "\(done)")
        #expect(try todo.ok(["undone", short, short, "--json"]).split(separator: "\n").count == 3)
        let removed = try todo.ok(["rm", short, short])
        #expect(removed.split(separator: "\n").count == 1 && removed.hasPrefix("Deleted "), "\(removed)")
        #expect(try todo.listJSON(["--all"]).count == 1)
    }

    @Test func anAmbiguousPrefixListsTheTodosItMatches() throws {
        let items = (1...12).map { n in
            #"{"id":"abcd\#(String(format: "%02d", n))00-0000-4000-8000-000000000000","text":"todo \#(n)","createdAt":"2026-01-01T00:00:00.000Z"}"#
        }
        _ = try todo.ok(["import", "-"], stdin: "[" + items.prefix(3).joined(separator: ",") + "]")
        let three = try todo.run(["done", "abcd"])
        #expect(three.status == 1)
        #expect(three.stderr == """
            Error: 'abcd' matches 3 todos: type more characters of the ID:
              abcd01  todo 1
              abcd02  todo 2
              abcd03  todo 3

            """)
        _ = try todo.ok(["import", "-"], stdin: "[" + items.dropFirst(3).joined(separator: ",") + "]")
        let twelve = try todo.run(["rm", "abcd"])
        #expect(twelve.stderr.hasPrefix("Error: 'abcd' matches 12 todos"))
        #expect(twelve.stderr.contains("  abcd10  todo 10\n  … and 2 more\n"), "\(twelve.stderr)")
        #expect(!twelve.stderr.contains("todo 11"))
        #expect(try todo.listJSON(["--all"]).count == 12)
    }
}
