import ArgumentParser
import Foundation
import TodoCore

extension TodoCommand {
    /// Runs `todo` with `arguments` (without the program name): the invocations
    /// `QuickInvocation` reads run directly, the mistakes `UsageProblem` knows
    /// are explained, everything else goes through ArgumentParser.
    @MainActor
    public static func run(arguments: [String]) async {
        let arguments = readingTagRemovals(movingLeadingOptions(arguments))
        guard let quick = QuickInvocation(arguments: arguments) else {
            // Checked only here: what the shortcut accepts has none of these
            // problems, and a common command pays nothing for the check.
            if let problem = UsageProblem(arguments: arguments, commands: commandNames) {
                exitWithUsageError((namedTodo(problem, arguments: arguments) ?? problem).description)
            }
            await parseAndRun(arguments)
            return
        }
        do {
            let database = DatabaseOptions(path: quick.options.databasePath)
            let db = try quick.onlyReads ? database.openForReading() : database.open()
            try await quick.run(on: db)
            try db.close()
            // Exit while `db` is still referenced: the command's work is done and
            // the file closed, and tearing GRDB's objects down (removing
            // notification observers, disposing a dispatch queue, which starts a
            // thread) costs a small command a tenth of its time.
            Foundation.exit(0)
        } catch {
            exit(withError: CommandLineError.wording(error))
        }
    }

    /// What ArgumentParser's `main` does, except that a usage error is one line
    /// (what was wrong, and where the help is) instead of the error and the usage.
    @MainActor
    static func parseAndRun(_ arguments: [String]) async {
        do {
            var command = if let named = parseNamedSubcommand(arguments) { named } else { try await asyncParseAsRoot(arguments) }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ExitCode {
            // A command that printed its own message and chose its status.
            exit(withError: error)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: CommandLineError.wording(error)) }
            let subcommand = arguments.first.flatMap { commandNames.contains($0) ? $0 : nil }
            if let subcommand, let problem = UsageProblem.optionProblem(command: subcommand, rest: Array(arguments.dropFirst())) {
                exitWithUsageError(problem.description)
            }
            let help = subcommand.map { "todo \($0) --help" } ?? "todo --help"
            let message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            exitWithUsageError(message + (message.hasSuffix(".") ? "" : ".") + " See '\(help)'.")
        }
    }

    /// The subcommand `arguments` name, parsed by ArgumentParser reflecting
    /// that command only, not the whole tree of `todo`: 1.5 to 1.8 ms less for
    /// `todo status`, `show` or `list --tag` (BENCHMARKS.md, start-up). Nil
    /// when the first argument names no subcommand, when help is asked for,
    /// or when this parse fails: the whole tree's parse then gives the help
    /// and the errors it always gave. `StartupParseTests` checks both parses
    /// read the same arguments alike.
    static func parseNamedSubcommand(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
              !arguments.contains(where: { $0 == "-h" || $0 == "--help" || $0 == "help" }),
              let subcommand = configuration.subcommands.first(where: { command in
                  command.configuration.commandName == name || command.configuration.aliases.contains(name)
              }) else { return nil }
        return try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Prints `message` as one line on standard error and exits with EX_USAGE (64).
    static func exitWithUsageError(_ message: String) -> Never {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        Foundation.exit(ExitCode.validationFailure.rawValue)
    }

    /// Options typed before the subcommand moved after it: `todo --database
    /// PATH list`, `todo --json add milk` as `todo list --database PATH`,
    /// `todo add milk --json`.
    ///
    /// With a default subcommand, ArgumentParser reads a subcommand's options
    /// only after its name, so the natural order would fail with "Unexpected
    /// argument 'list'". The options move only when a subcommand follows them
    /// and none of them is `--`, `--version` or a request for a completion script
    /// or help dump, which belong to `todo` itself.
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-") else { return arguments }
        let names = commandNames
        guard let index = arguments.firstIndex(where: { names.contains($0) }) else { return arguments }
        let options = arguments[..<index]
        let rootOnly = ["--", "--version", "--generate-completion-script", "--experimental-dump-help"]
        guard !options.contains(where: { option in rootOnly.contains { option == $0 || option.hasPrefix($0 + "=") } }) else {
            return arguments
        }
        return [arguments[index]] + options + arguments[(index + 1)...]
    }

    /// `todo edit 3f2a -urgent`, `todo list -work`: Taskwarrior's words for
    /// a tag taken off, or left out, which ArgumentParser would read as
    /// options, are `--untag urgent` and `--not-tag work`. Before a `--`
    /// only, and never an option's value (`--note -x`).
    static func readingTagRemovals(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, ["edit", "list", "ls"].contains(command) else { return arguments }
        let option = command == "edit" ? "--untag" : "--not-tag"
        var read: [String] = [], index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                return read + [argument] + arguments[index...]
            }
            if Self.valueOptions.contains(argument), index < arguments.count {
                read += [argument, arguments[index]]
                index += 1
            } else if argument.hasPrefix("-"), argument.dropFirst().first?.isLetter == true, argument.count > 2 {
                read += [option, String(argument.dropFirst())]
            } else {
                read.append(argument)
            }
        }
        return read
    }

    /// `words`, a command's text as ArgumentParser gives it, with the `--`
    /// it took away put back before the words typed after it: those are
    /// text, Taskwarrior's words too (`TaskwarriorWords`).
    static func markingTerminator(_ words: [String], arguments: [String] = CommandLine.arguments) -> [String] {
        guard let terminator = arguments.firstIndex(of: "--") else { return words }
        let after = min(arguments.count - terminator - 1, words.count)
        return words.dropLast(after) + ["--"] + words.suffix(after)
    }

    /// The options of `edit` and `list` whose value follows them.
    static let valueOptions = UsageProblem.optionsWithValues
        + ["--query", "-q", "--limit", "--sort", "--due-before", "--due-after", "--not-tag"]

    /// `todo 892d`, where 892d is a todo's ID: the command that shows it
    /// instead of the one that would add it. Nil for a word no todo's ID
    /// starts with, or with no database to look in. An ID of four or more
    /// characters wins over a command it happens to be near (`ed94` is two
    /// edits from `edit`); a shorter word near a command stays a typo.
    static func namedTodo(_ problem: UsageProblem, arguments: [String]) -> UsageProblem? {
        guard case let .unknownCommand(words, suggestion, _) = problem, words.count == 1,
              suggestion == nil || words[0].count >= 4,
              words[0].allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        var explicit: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--database", index + 1 < arguments.count { explicit = arguments[index + 1] }
            if argument.hasPrefix("--database=") { explicit = String(argument.dropFirst("--database=".count)) }
        }
        guard let db = try? DatabaseOptions(path: explicit).openForReading(),
              let found = try? db.resolveListed(idPrefixes: words), found.count == 1 else { return nil }
        return .todoID(words[0], text: found[0].item.text)
    }

    /// Every subcommand's name and aliases, and ArgumentParser's own `help`.
    static var commandNames: [String] {
        configuration.subcommands.flatMap { command in
            [command.configuration.commandName].compactMap { $0 } + command.configuration.aliases
        } + ["help"]
    }

    /// The long options (`--limit`) of the subcommand named `name` (or an
    /// alias); none for an unknown name.
    static func longOptions(of name: String) -> Set<String> {
        Set(describedOptions(of: name).flatMap(\.names).filter { $0.hasPrefix("--") })
    }

    /// The options and flags of the subcommand named `name` (or an alias), as
    /// ArgumentParser itself describes the command: what
    /// `--experimental-dump-help` prints, read back. The quick path and
    /// `UsageProblem` keep short lists of their own, for speed; tests hold
    /// them to this (`OptionListsTests`).
    static func describedOptions(of name: String) -> [(names: [String], takesValue: Bool)] {
        guard let command = configuration.subcommands.first(where: { command in
            command.configuration.commandName == name || command.configuration.aliases.contains(name)
        }) else { return [] }
        let described: String
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
            return []
        } catch {
            described = command.fullMessage(for: error)
        }
        guard let info = try? JSONDecoder().decode(DescribedCommand.self, from: Data(described.utf8)) else { return [] }
        return info.command.arguments.compactMap { argument in
            guard argument.kind != "positional", let names = argument.names else { return nil }
            return (names.map { ($0.kind == "short" ? "-" : "--") + $0.name }, argument.kind == "option")
        }
    }

    /// The part of ArgumentParser's description of a command (`ToolInfoV0`) that names its options.
    private struct DescribedCommand: Decodable {
        struct Command: Decodable { let arguments: [Argument] }
        struct Argument: Decodable { let kind: String; let names: [Name]? }
        struct Name: Decodable { let kind: String; let name: String }
        let command: Command
    }

    /// The subcommands' names, without aliases, in the order `--help` lists them.
    static var primaryCommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }
}
