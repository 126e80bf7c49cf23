import TodoCore

/// Mistakes in the arguments that ArgumentParser would answer unhelpfully,
/// found before it parses them, each worded with what to type instead.
///
/// With `list` as the default subcommand, ArgumentParser reads an unknown
/// first word as an argument of `list` ("Unexpected argument 'lsit'"), and
/// it reads text starting with a dash as an option ("Unknown option '-5'").
enum UsageProblem: Error, Equatable, CustomStringConvertible {
    /// `todo lsit`: the words typed, the nearest command if one is near, and every command.
    case unknownCommand([String], suggestion: String?, commands: [String])
    /// `todo 892d`: a todo's ID (and its text) where a command goes.
    case todoID(String, text: String)
    /// `todo add -5 degrees`: text that starts with a dash, read as an option.
    case dashInText(command: String, word: String, corrected: String)
    /// `todo add call mom -h`: a help flag among the words of a todo.
    case helpAmongText(command: String, flag: String, corrected: String)
    /// `todo list --limt 3`: a mistyped option, and the option it is nearest to.
    case unknownOption(command: String, option: String, suggestion: String)

    var description: String {
        switch self {
        case let .unknownCommand(words, suggestion, commands):
            "unknown command '\(words[0])'"
                + (suggestion.map { ": did you mean '\($0)'?" }
                    ?? ": to add a todo, run todo add \(words.map(ShellWord.quoted).joined(separator: " ")).")
                + " The commands are \(commands.joined(separator: ", ")) (todo --help describes them)"
        case let .todoID(id, text):
            "'\(id)' is the ID of “\(text)”, not a command: to see it, run todo show \(id); to change it, todo edit \(id)"
        case let .dashInText(command, word, corrected):
            "'\(word)' is not an option of todo \(command): if it is part of the text, put -- before the text: \(corrected)"
        case let .unknownOption(command, option, suggestion):
            "unknown option '\(option)' for todo \(command): did you mean '\(suggestion)'?"
        case let .helpAmongText(command, flag, corrected):
            "'\(flag)' among the words of a todo asks for help: for todo \(command)'s help, run todo \(command) --help; "
                + "to keep it in the text, put -- before the text: \(corrected)"
        }
    }

    /// The first problem in `arguments` (without the program name), or nil.
    /// `commands` are the subcommands' names and aliases.
    init?(arguments: [String], commands: [String]) {
        var index = 0
        // `--database PATH` and `--json` may come first (see `movingLeadingOptions`).
        while index < arguments.count {
            if arguments[index] == "--database" {
                index += 2
            } else if arguments[index].hasPrefix("--database=") || arguments[index] == "--json" {
                index += 1
            } else {
                break
            }
        }
        guard index < arguments.count else { return nil }
        let word = arguments[index]
        guard !word.hasPrefix("-") else { return nil }
        guard commands.contains(word) else {
            let listed = TodoCommand.primaryCommandNames
            let words = arguments[index...].prefix { !$0.hasPrefix("-") }
            let suggestion = Self.nearest(to: word, among: commands.filter { $0 != "help" })
            self = .unknownCommand(Array(words), suggestion: suggestion, commands: listed)
            return
        }
        guard word == "add" || word == "edit" else { return nil }
        let rest = Array(arguments[(index + 1)...])
        if let problem = Self.textProblem(command: word, rest: rest) {
            // A dashed word near an option is that option mistyped, not text.
            self = Self.optionProblem(command: word, rest: rest) ?? problem
        } else {
            return nil
        }
    }

    /// A long option the command does not have, near one it has (`--limt`
    /// for `--limit`): ArgumentParser would take it for text, or say only
    /// that it is unknown. One near none is left to the other checks (text
    /// that starts with a dash).
    ///
    /// Only asked once something is wrong: reading a command's options from
    /// its help costs a command that runs fine a few milliseconds.
    static func optionProblem(command: String, rest: [String]) -> UsageProblem? {
        let typed = rest.prefix { $0 != "--" }.filter { $0.hasPrefix("--") && $0.count > 2 }
            .map { String($0.split(separator: "=", maxSplits: 1)[0]) }
        guard !typed.isEmpty else { return nil }
        let options = TodoCommand.longOptions(of: command)
        guard let unknown = typed.first(where: { !options.contains($0) }) else { return nil }
        let allowed = unknown.count >= 6 ? 2 : 1
        guard let (suggestion, distance) = options.sorted().map({ ($0, editDistance(unknown, $0)) }).min(by: { $0.1 < $1.1 }),
              distance <= allowed else { return nil }
        return .unknownOption(command: command, option: unknown, suggestion: suggestion)
    }

    /// The options of `add` and `edit` that take a value: neither they nor their values are text.
    static let optionsWithValues = [
        "--database", "--priority", "--tag", "--untag", "--note", "--repeat", "--count", "--project", "--parent", "--blocked-by",
        "--unblock", "--where",
    ] + TodoField.datesWithOptions.map { "--" + $0.key }

    /// The flags of `add` and `edit`: neither they nor a value follow as text.
    private static let flags: Set<String> = ["--json", "--yes", "--dry-run", "--from-completion"]

    /// A word of `add`'s or `edit`'s text that ArgumentParser would take for an option.
    private static func textProblem(command: String, rest: [String]) -> UsageProblem? {
        var words: [String] = []
        var dashed: String?
        var help: String?
        var index = 0
        while index < rest.count {
            let argument = rest[index]
            index += 1
            switch argument {
            case "--":
                words += rest[index...]
                index = rest.count
            case _ where optionsWithValues.contains(argument):
                index += 1
            case _ where flags.contains(argument):
                break
            case "-h", "--help":
                help = help ?? argument
            case _ where optionsWithValues.contains { argument.hasPrefix($0 + "=") }:
                break
            case _ where argument.hasPrefix("-") && argument.count > 1:
                dashed = dashed ?? argument
                words.append(argument)
            default:
                words.append(argument)
            }
        }
        // The ID `edit` takes first is not text (with --where, there is none).
        let idWords = command == "edit" && !rest.contains("--where") ? Array(words.prefix(1)) : []
        let textWords = words.dropFirst(idWords.count)
        let corrected = (["todo", command] + idWords + ["--"] + textWords + (help.map { [$0] } ?? []))
            .map(ShellWord.quoted).joined(separator: " ")
        if let dashed {
            return .dashInText(command: command, word: dashed, corrected: corrected)
        }
        if let help, !textWords.isEmpty {
            return .helpAmongText(command: command, flag: help, corrected: corrected)
        }
        return nil
    }

    /// The command `word` was most likely meant to be: within two edits (one
    /// for a word of three letters or fewer; a swap of neighbours counts as
    /// one), or starting with it.
    static func nearest(to word: String, among commands: [String]) -> String? {
        let scored = commands.map { ($0, editDistance(word, $0)) }
        // Two edits make a short word into too many others ("buy" into "ui").
        let allowed = word.count >= 4 ? 2 : 1
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed {
            return best.0
        }
        return commands.first { $0.hasPrefix(word) }
    }

    /// The optimal string alignment distance: insertions, deletions,
    /// substitutions and swaps of neighbouring characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
