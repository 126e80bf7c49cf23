import Foundation
import Testing
import TestSupport

/// The mistakes a user makes in a week of use, each answered in one line that
/// says what to type instead, with status 64 and nothing written.
@Suite("todo explains usage mistakes", .threadsOfTheirOwn)
struct UsageTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Runs `arguments`, requiring a one-line usage error containing every fragment
    /// and an unchanged database.
    func expectUsageError(
        _ arguments: [String], saying fragments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try todo.ok(["export"])
        let result = try todo.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try todo.ok(["export"]) == before, "the database changed", sourceLocation: sourceLocation)
    }

    @Test func anUnknownCommandIsNamedWithTheNearestOne() throws {
        _ = try todo.ok(["add", "milk"])
        try expectUsageError(["lsit"], saying: "unknown command 'lsit'", "did you mean 'list'?", "add, list, done")
        try expectUsageError(["undoo", "3f2a"], saying: "unknown command 'undoo'", "did you mean 'undo'?")
        try expectUsageError(["delte", "3f2a"], saying: "did you mean 'delete'?")
        try expectUsageError(["--database", todo.databasePath, "lsit"], saying: "unknown command 'lsit'")
        try expectUsageError(["buy", "oat", "milk"], saying: "unknown command 'buy': to add a todo, run todo add buy oat milk.")
        try expectUsageError(["ls", "milk"], saying: "todo list --query milk")
        try expectUsageError(["list", "oat", "milk"], saying: "todo list --query 'oat milk'")
    }

    /// The live view's and the CalDAV lists' options, misused.
    @Test func liveAndCalDAVListOptionsSayWhatGoesWithWhat() throws {
        _ = try todo.ok(["add", "milk"])
        try expectUsageError(["ui", "--every", "0"], saying: "--every takes seconds from 1 to 86400, got 0")
        try expectUsageError(["ui", "--no-live", "--every", "5"], saying: "--no-live turns that off: give one")
        try expectUsageError(["sync", "--server", "http://127.0.0.1:9", "--user", "alice"], saying: "--user goes with --caldav-lists")
        try expectUsageError(["sync", "--caldav-lists", "https://example.org/", "--watch"], saying: "drop --watch")
        let live = try todo.run(["ui"], environment: ["TODO_LIVE": "maybe"])
        #expect(live.status == 64)
        #expect(live.stderr.contains("TODO_LIVE must be on or off, not \"maybe\""), "\(live.stderr)")
    }

    /// A mistyped option is named with the nearest option of that command,
    /// not taken for text.
    @Test func aMistypedOptionIsNamedWithTheNearestOne() throws {
        _ = try todo.ok(["add", "milk"])
        try expectUsageError(["list", "--limt", "3"], saying: "unknown option '--limt' for todo list: did you mean '--limit'?")
        try expectUsageError(["list", "--tga", "home"], saying: "unknown option '--tga' for todo list: did you mean '--tag'?")
        try expectUsageError(["add", "milk", "--prioirty", "high"], saying: "did you mean '--priority'?")
        try expectUsageError(["sync", "--dryrun"], saying: "did you mean '--dry-run'?")
        // Far from every option: text that starts with dashes, as before.
        try expectUsageError(["add", "--whatever", "milk"], saying: "put -- before the text")
    }

    @Test func aSubcommandsOptionMayComeBeforeIt() throws {
        let added = try todo.ok(["--json", "add", "x"])
        #expect(added.hasPrefix("{\"id\":"))
        #expect(try todo.ok(["--json", "list"]).contains("\"text\":\"x\""))
        #expect(try todo.ok(["--all", "ls"]).contains("x"))
    }

    @Test func textStartingWithADashSaysToPutDoubleDashBeforeIt() throws {
        try expectUsageError(["add", "-5", "degrees"], saying: "'-5' is not an option of todo add", "todo add -- -5 degrees")
        try expectUsageError(["add", "fix", "the", "-q", "option"], saying: "todo add -- fix the -q option")
        try expectUsageError(["add", "call", "mom", "-h"], saying: "asks for help", "todo add -- call mom -h")
        _ = try todo.ok(["add", "milk"])
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        try expectUsageError(["edit", id, "-5", "degrees"], saying: "todo edit \(id) -- -5 degrees")
        // With -- the text goes in as typed.
        #expect(try todo.ok(["add", "--", "-5", "degrees"]).hasSuffix("  -5 degrees\n"))
        #expect(try todo.ok(["add", "--help"]).contains("USAGE"))
    }

    @Test func anEmptyDatabasePathIsRefused() throws {
        try expectUsageError(["add", "milk", "--database", ""], saying: "--database is empty")
        try expectUsageError(["list", "--database="], saying: "Missing value for '--database <path>'")
        try expectUsageError(["--database", "", "list"], saying: "--database is empty")
    }

    @Test func listOptionsAreCheckedInPlainWords() throws {
        try expectUsageError(["list", "--limit", "-1"], saying: "--limit must be at least 1, got -1")
        try expectUsageError(["list", "--done", "--all"], saying: "--pending, --done and --all", "give one of them")
        try expectUsageError(["list", "--bogus"], saying: "Unknown option '--bogus'", "See 'todo list --help'")
    }

    @Test func lastQueryWithoutASavedQuerySaysSo() throws {
        _ = try todo.ok(["add", "milk"])
        let result = try todo.run(["list", "--last-query"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: there is no last query yet: search once with todo list --query TEXT, then --last-query repeats it\n")
    }

    @Test func aBadUUIDInAnImportNamesTheEntryAndField() throws {
        let file = #"[{"id":"abcd0000-0000-4000-8000-000000000001","text":"a","createdAt":"2026-01-01T00:00:00Z"},"#
            + #"{"id":"not-a-uuid","text":"b","createdAt":"2026-01-01T00:00:00Z"}]"#
        let result = try todo.run(["import", "-"], stdin: file)
        #expect(result.status == 1)
        #expect(result.stderr.contains("todo 2, field 'id' is not a UUID such as"), "\(result.stderr)")
        #expect(!result.stderr.contains("Attempted"))
        #expect(try todo.listJSON(["--all"]).isEmpty)
    }

    @Test func aPastedTabBecomesASpace() throws {
        #expect(try todo.ok(["add", "pasted\tfrom a sheet"]).hasSuffix("  pasted from a sheet\n"))
    }
}
