import ArgumentParser
import Foundation
import TodoStorage

extension TodoCommand {
    /// Runs `todo` with `arguments` (without the program name): the invocations
    /// `QuickInvocation` reads run directly, the mistakes `UsageProblem` knows
    /// are explained, everything else goes through ArgumentParser.
    @MainActor
    public static func run(arguments: [String]) async {
        let arguments = movingLeadingOptions(arguments)
        guard let quick = QuickInvocation(arguments: arguments) else {
            // Checked only here: what the shortcut accepts has none of these
            // problems, and a common command pays nothing for the check.
            if let problem = UsageProblem(arguments: arguments, commands: commandNames) {
                exitWithUsageError(problem.description)
            }
            await parseAndRun(arguments)
            return
        }
        do {
            let path = DatabaseLocation.resolve(explicit: quick.options.databasePath)
            let db = try quick.onlyReads
                ? AppDatabase.openForReading(path: path, explicit: DatabaseLocation.isNamed(explicit: quick.options.databasePath))
                : AppDatabase.openForWriting(path: path)
            try await quick.run(on: db)
            try db.close()
            // Exit while `db` is still referenced: the command's work is done and
            // the file closed, and tearing GRDB's objects down (removing
            // notification observers, disposing a dispatch queue, which starts a
            // thread) costs a small command a tenth of its time.
            Foundation.exit(0)
        } catch {
            exit(withError: error)
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
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
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

    /// Every subcommand's name and aliases, and ArgumentParser's own `help`.
    static var commandNames: [String] {
        configuration.subcommands.flatMap { command in
            [command.configuration.commandName].compactMap { $0 } + command.configuration.aliases
        } + ["help"]
    }

    /// The long options (`--limit`) of the subcommand named `name` (or an
    /// alias), as its help lists them; none for an unknown name.
    static func longOptions(of name: String) -> Set<String> {
        guard let command = configuration.subcommands.first(where: { command in
            command.configuration.commandName == name || command.configuration.aliases.contains(name)
        }) else { return [] }
        var options: Set<String> = []
        for line in command.helpMessage(columns: 1_000).split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "," })
            for word in words.prefix(3) where word.hasPrefix("--") { options.insert(String(word)) }
        }
        return options
    }

    /// The subcommands' names, without aliases, in the order `--help` lists them.
    static var primaryCommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }
}
