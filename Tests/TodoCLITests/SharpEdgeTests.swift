import Foundation
import Testing
import TestSupport

/// The sharp edges a week of real use found: each refused in one line that
/// says what to do, with nothing written or lost.
@Suite("Sharp edges of real use", .threadsOfTheirOwn)
struct SharpEdgeTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// `todo rm 9` from a numbered-list habit deletes nothing: a prefix
    /// shorter than IDs are shown is refused by every command that changes
    /// todos, with the todos it matches.
    @Test(arguments: [["rm"], ["done"], ["undone"], ["edit", "--priority", "high"]])
    func aPrefixShorterThanFourCharactersChangesNothing(command: [String]) throws {
        _ = try todo.ok(["import", "-"], stdin: """
            [{"id":"9abc0000-0000-4000-8000-000000000001","text":"one","createdAt":"2026-01-01T00:00:00.000Z","done":true,"completedAt":"2026-01-01T00:00:00.000Z"},
             {"id":"9bcd0000-0000-4000-8000-000000000002","text":"two","createdAt":"2026-01-02T00:00:00.000Z"}]
            """)
        let before = try todo.ok(["export"])
        let result = try todo.run([command[0], "9"] + command.dropFirst())
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("Error: '9' is shorter than the 4 characters IDs are shown with"), "\(result.stderr)")
        #expect(result.stderr.contains("9abc  one") && result.stderr.contains("9bcd  two"), "\(result.stderr)")
        #expect(try todo.ok(["export"]) == before)
        // Four characters are enough.
        #expect(try todo.run([command[0], "9bcd"] + command.dropFirst()).status == 0)
    }

    /// `todo done` on a repeating todo days overdue says where it went next:
    /// due today, not one more overdue day.
    @Test func doneSaysTheNextOccurrenceDueTodayOrLater() throws {
        _ = try todo.ok(["add", "water plants", "--due", "yesterday", "--repeat", "daily"])
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        let done = try todo.ok(["done", String(id.prefix(8))])
        let lines = done.split(separator: "\n")
        #expect(lines.count == 2, "\(done)")
        #expect(lines.first?.hasPrefix("Done ") == true)
        #expect(lines.last?.hasPrefix("Next ") == true && lines.last?.contains("water plants") == true, "\(done)")
        let next = try #require(try todo.listJSON().first)
        let today = CalendarDayText.today
        #expect(next["due"] as? String == today, "\(next)")
        #expect(next["repeat"] as? String == "daily")
    }

    /// A read never creates: a mistyped `--database` is said to be missing,
    /// and no folder or file appears; a write creates it and says where.
    @Test func aReadCreatesNothingAndAWriteSaysWhereItCreated() throws {
        let typo = todo.directory.appendingPathComponent("typo/x.sqlite").path
        for read in [["list"], ["show", "abcd"], ["export"], ["status"], ["undo", "--list"]] {
            let result = try todo.run(read + ["--database", typo])
            #expect(result.status != 0, "\(read)")
            #expect(result.stderr == "Error: there is no todo database at \(typo): check the path (a command that adds todos creates it there)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: todo.directory.appendingPathComponent("typo").path))
        // Nothing named at all: the default place reads as empty, and stays absent.
        let home = todo.directory.appendingPathComponent("home").path
        let fresh = try todo.run(["list"], environment: ["TODO_DATABASE": "", "HOME": home, "XDG_DATA_HOME": ""])
        #expect(fresh.status == 0 && fresh.stdout.isEmpty, "\(fresh.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home))
        let added = try todo.run(["add", "milk", "--database", typo])
        #expect(added.status == 0)
        #expect(added.stderr == "Created a new todo database at \(typo)\n")
        #expect(try todo.run(["add", "bread", "--database", typo]).stderr.isEmpty)
    }

    /// A damaged database (a page overwritten, the file cut short) is said
    /// to be damaged, with how to save what it holds, and left untouched.
    @Test(arguments: ["overwritten", "cut short"])
    func aDamagedDatabaseIsSaidToBeDamaged(damage: String) throws {
        for n in 1...300 { _ = try todo.ok(["add", "todo number \(n) with some words to fill the pages"]) }
        let url = URL(fileURLWithPath: todo.databasePath)
        _ = try todo.ok(["list"])
        var bytes = try Data(contentsOf: url)
        if damage == "overwritten" {
            bytes.replaceSubrange(4096..<8192, with: Data(repeating: 0xFF, count: 4096))
        } else {
            bytes = bytes.prefix(6000)
        }
        try bytes.write(to: url)
        try? FileManager.default.removeItem(atPath: todo.databasePath + "-wal")
        try? FileManager.default.removeItem(atPath: todo.databasePath + "-shm")
        let result = try todo.run(["list"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("is a damaged SQLite database"), "\(result.stderr)")
        #expect(result.stderr.contains(".recover"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: url) == bytes)
    }

    /// `--from todotxt` of a JSON file imports nothing; a JSON import keeps
    /// the rules `--tag` keeps; `--untag` of a tag the todo lacks says so.
    @Test func importsAndUntagKeepTheRulesEverywhere() throws {
        let json = todo.directory.appendingPathComponent("todos.json")
        try Data(#"[{"id":"3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b","text":"x","createdAt":"2026-11-21T09:30:00Z","tags":["a b"]}]"#.utf8).write(to: json)
        let asTodoTxt = try todo.run(["import", "--from", "todotxt", json.path])
        #expect(asTodoTxt.status != 0)
        #expect(asTodoTxt.stderr.contains("is JSON, not todo.txt"), "\(asTodoTxt.stderr)")
        let badTag = try todo.run(["import", json.path])
        #expect(badTag.status != 0)
        #expect(badTag.stderr.contains("tag 'a b' is not one word"), "\(badTag.stderr)")
        #expect(!FileManager.default.fileExists(atPath: todo.databasePath), "a refused import created the database")
        _ = try todo.ok(["add", "milk", "--tag", "home"])
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        let untag = try todo.run(["edit", String(id.prefix(8)), "--untag", "hom"])
        #expect(untag.status != 0)
        #expect(untag.stderr == "Error: the todo has no tag 'hom': its tags are home\n")
    }
}

/// Today's date as `todo` writes a due date, in this machine's time zone.
enum CalendarDayText {
    static var today: String { text(Date()) }

    static var tomorrow: String { text(Calendar.current.date(byAdding: .day, value: 1, to: Date())!) }

    private static func text(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
