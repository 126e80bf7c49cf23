import ArgumentParser
import PropertyBased
import Testing
@testable import TodoCLI

/// `QuickInvocation` reads the most common arguments without ArgumentParser.
/// These properties pin that whenever it accepts arguments, ArgumentParser
/// parses them to exactly the same values, so the shortcut never changes what
/// a command does.
@Suite("QuickInvocation agrees with ArgumentParser")
struct QuickInvocationTests {
    /// Words chosen to hit every branch: subcommands, the options the shortcut
    /// reads, options it leaves to ArgumentParser, values that look like options,
    /// and words ArgumentParser treats specially.
    static let vocabulary = [
        "add", "done", "undone", "list", "ls", "rm", "edit", "show", "help", "sync",
        "milk", "3f2a", "", " ", "é", "buy milk", "--json", "--database", "/tmp/t.sqlite",
        "--query", "-q", "mi", "--all", "--done", "--pending", "--limit", "5", "0", "-1", "05", "--last-query",
        "--help", "-h", "--version", "--", "-", "-x", "--json=1", "-qmi", "--database=/tmp/t.sqlite",
        "--due", "fri", "--priority", "high", "H", "none", "urgent", "--tag", "home", "--note", "--repeat", "weekly",
        "--untag", "--sort", "due", "--tag=home",
    ]
    static let word = Gen.int(in: 0...(vocabulary.count - 1)).map { vocabulary[$0] }
    static let subcommand = Gen.int(in: 0...5).map { ["add", "done", "undone", "list", "ls", "help"][$0] }

    @Test func acceptedArgumentsParseToTheSameValues() async {
        await propertyCheck(count: 3000, input: Self.subcommand, Self.word.array(of: 0...5)) { name, rest in
            let arguments = [name] + rest
            guard let quick = QuickInvocation(arguments: arguments) else { return }
            #expect(Self.parse(arguments) == quick, "arguments \(arguments)")
        }
    }

    @Test(arguments: [
        [],
        ["add", "milk"],
        ["add", "buy", "oat", "milk", "--json"],
        ["add", "--database", "/tmp/t.sqlite", "milk"],
        ["add", "pay", "rent", "--due", "fri", "--priority", "high", "--tag", "home", "--tag", "bills", "--note", "IBAN in mail", "--repeat", "monthly"],
        ["add", "--priority", "none", "--due", "2026-12-01T14:30", "milk", "--tag", ""],
        ["add", "help"],
        ["add", ""],
        ["done", "3f2a", "91bc"],
        ["undone", "3f2a", "--json"],
        ["list"],
        ["ls", "--query", "mi", "--all"],
        ["list", "-q", "mi", "--done", "--json", "--database", "/tmp/t.sqlite"],
        ["list", "--limit", "5"],
        ["ls", "--query", "mi", "--limit", "20", "--json"],
    ])
    func commonArgumentsTakeTheShortcut(arguments: [String]) {
        let quick = QuickInvocation(arguments: arguments)
        #expect(quick != nil)
        #expect(Self.parse(arguments) == quick)
    }

    @Test(arguments: [
        ["add"],
        ["done"],
        ["list", "extra"],
        ["list", "--limit", "0"],
        ["list", "--limit", "-1"],
        ["list", "--limit", "+5"],
        ["list", "--limit"],
        ["add", "milk", "--limit", "5"],
        ["list", "--query", "a", "-q", "b"],
        ["list", "--all", "--done"],
        ["list", "--query"],
        ["list", "--query", "-x"],
        ["add", "--", "-5 degrees"],
        ["add", "milk", "--help"],
        ["add", "milk", "--json", "--json"],
        ["done", "--query", "mi", "3f2a"],
        ["add", "milk", "--priority", "urgent"],
        ["add", "milk", "--due", "fri", "--due", "mon"],
        ["add", "milk", "--due", "-1d"],
        ["add", "milk", "--tag"],
        ["add", "milk", "--tag=home"],
        ["done", "3f2a", "--due", "fri"],
        ["list", "--due", "overdue"],
        ["list", "--tag", "home"],
        ["list", "--sort", "due"],
        ["--database", "/tmp/t.sqlite", "list"],
        ["list", "--database", ""],
        ["--version"],
        ["help"],
        ["rm", "3f2a"],
        ["sync"],
    ])
    func everythingElseGoesToArgumentParser(arguments: [String]) {
        #expect(QuickInvocation(arguments: arguments) == nil)
    }

    @Test func aLeadingDatabaseOptionMovesAfterTheSubcommand() {
        let move = TodoCommand.movingLeadingOptions
        #expect(move(["--database", "/tmp/t.sqlite", "list", "-q", "mi"]) == ["list", "--database", "/tmp/t.sqlite", "-q", "mi"])
        #expect(move(["--database=/tmp/t.sqlite", "ls"]) == ["ls", "--database=/tmp/t.sqlite"])
        #expect(move(["--database", "/tmp/t.sqlite", "rm", "3f2a"]) == ["rm", "--database", "/tmp/t.sqlite", "3f2a"])
        // Anything else is left for ArgumentParser to accept or explain.
        #expect(move(["--database", "/tmp/t.sqlite"]) == ["--database", "/tmp/t.sqlite"])
        #expect(move(["--database", "/tmp/t.sqlite", "milk"]) == ["--database", "/tmp/t.sqlite", "milk"])
        #expect(move(["list", "--database", "/tmp/t.sqlite"]) == ["list", "--database", "/tmp/t.sqlite"])
        #expect(move(["--json", "add", "x"]) == ["add", "--json", "x"])
        #expect(move(["--json", "--database", "/tmp/t.sqlite", "ls"]) == ["ls", "--json", "--database", "/tmp/t.sqlite"])
        #expect(move(["--version", "list"]) == ["--version", "list"])
        #expect(move(["--", "list"]) == ["--", "list"])
        #expect(Set(TodoCommand.commandNames).isSuperset(of: ["add", "list", "ls", "done", "rm", "sync", "status"]))
    }

    /// What ArgumentParser makes of `arguments`, as a `QuickInvocation`
    /// (nil if it fails or picks a command the shortcut does not cover).
    static func parse(_ arguments: [String]) -> QuickInvocation? {
        guard let command = try? TodoCommand.parseAsRoot(arguments) else { return nil }
        switch command {
        case let add as AddCommand:
            return .add(words: add.words, fields: add.fields, options: options(add.database, add.output))
        case let done as DoneCommand:
            return .setDone(true, ids: done.ids, options: options(done.database, done.output))
        case let undone as UndoneCommand:
            return .setDone(false, ids: undone.ids, options: options(undone.database, undone.output))
        case let list as ListCommand:
            guard !list.lastQuery else { return nil }
            return .list(query: list.query, status: list.status, limit: list.limit, options: options(list.database, list.output))
        default:
            return nil
        }
    }

    static func options(_ database: DatabaseOptions, _ output: OutputOptions) -> QuickInvocation.CommonOptions {
        QuickInvocation.CommonOptions(databasePath: database.path, json: output.json)
    }
}
