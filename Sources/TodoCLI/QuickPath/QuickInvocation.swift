import Foundation
import TodoCore

/// The invocations typed most often (`todo add milk`, `todo add rent --due fri
/// --tag home`, `todo done 3f2a`, `todo`, `todo list --query mi --limit 20`), read
/// straight from the arguments.
///
/// ArgumentParser finds a command's options by reflection, and on Linux every
/// generic type and dynamic cast it resolves at start-up scans the binary's
/// protocol conformance records: about two thirds of the instructions of a
/// `todo add`. These invocations skip it and call the same functions the
/// commands' `run()` call. Anything else — any other option, `--help`, a value
/// starting with `-`, a repeated option, `--` — returns nil and goes through
/// ArgumentParser, so errors and help look exactly as they always do. A test
/// checks that whenever this accepts arguments, ArgumentParser parses them to
/// the same values.
enum QuickInvocation: Equatable, Sendable {
    case add(words: [String], fields: PlanningArguments, options: CommonOptions)
    case setDone(Bool, ids: [String], options: CommonOptions)
    case list(query: String?, status: StatusFilter, limit: Int?, options: CommonOptions)

    /// The options every quick invocation takes.
    struct CommonOptions: Equatable, Sendable {
        var databasePath: String?
        var json = false
    }

    /// Reads `arguments` (without the program name), or returns nil if they need
    /// ArgumentParser.
    init?(arguments: [String]) {
        guard let name = arguments.first else {
            self = .list(query: nil, status: .pending, limit: nil, options: CommonOptions())
            return
        }
        let isList = name == "list" || name == "ls"
        guard isList || ["add", "done", "undone"].contains(name) else { return nil }

        var options = CommonOptions()
        var positionals: [String] = []
        var query: String?
        var limit: Int?
        var status: StatusFilter?
        var fields = PlanningArguments()
        let isAdd = name == "add"
        // An array, not a Set: a Set<String> is a generic type the runtime
        // resolves at start-up, a scan of every conformance in the binary.
        var seen: [String] = []
        var index = arguments.index(after: arguments.startIndex)
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                positionals.append(argument)
                continue
            }
            // Each option at most once (but --tag); a second one is ArgumentParser's to judge.
            guard argument == "--tag" || !seen.contains(argument) else { return nil }
            seen.append(argument)
            switch argument {
            case "--json":
                options.json = true
            case "--database", "--query", "-q":
                guard argument == "--database" || isList else { return nil }
                // An empty path is refused by ArgumentParser's side (`DatabaseOptions.validate`).
                guard index < arguments.endIndex, !arguments[index].hasPrefix("-"), !arguments[index].isEmpty else { return nil }
                if argument == "--database" {
                    options.databasePath = arguments[index]
                } else {
                    // --query and -q are one option.
                    guard query == nil else { return nil }
                    query = arguments[index]
                }
                index += 1
            case "--due", "--priority", "--tag", "--note", "--repeat":
                // The planning fields of add, each value read later as `add` reads it.
                guard isAdd, index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                let value = arguments[index]
                index += 1
                switch argument {
                case "--due": fields.due = value
                case "--priority":
                    // A value ArgumentParser refuses is its to explain.
                    guard let priority = PriorityArgument(argument: value) else { return nil }
                    fields.priority = priority
                case "--tag": fields.tags.append(value)
                case "--note": fields.note = value
                default: fields.recurrence = value
                }
            case "--limit":
                // A number of 1 or more, in the digits ArgumentParser reads; anything else is its to explain.
                guard isList, index < arguments.endIndex, arguments[index].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let number = Int(arguments[index]), number >= 1 else { return nil }
                limit = number
                index += 1
            case "--pending", "--done", "--all":
                guard isList, status == nil else { return nil }
                status = StatusFilter(rawValue: String(argument.dropFirst(2)))
            default:
                return nil
            }
        }

        switch name {
        case "add":
            guard !positionals.isEmpty else { return nil }
            self = .add(words: positionals, fields: fields, options: options)
        case "done", "undone":
            guard !positionals.isEmpty else { return nil }
            self = .setDone(name == "done", ids: positionals, options: options)
        default:
            guard positionals.isEmpty else { return nil }
            self = .list(query: query, status: status ?? .pending, limit: limit, options: options)
        }
    }

    /// It reads and never writes (`list`): it creates no database.
    var onlyReads: Bool {
        if case .list = self { true } else { false }
    }

    var options: CommonOptions {
        switch self {
        case .add(_, _, let options), .setDone(_, _, let options), .list(_, _, _, let options): options
        }
    }

    /// Does what the matching command's `run()` does, on `db`.
    @MainActor
    func run(on db: any TodoDatabase) async throws {
        switch self {
        case .add(let words, let fields, let options):
            try await AddCommand.add(words: words, fields: fields, db: db, json: options.json)
        case .setDone(let done, let ids, let options):
            try await markDone(done, ids: ids, db: db, json: options.json)
        case .list(let query, let status, let limit, let options):
            try await ListCommand.list(db: db, json: options.json, query: query, status: status, limit: limit)
        }
    }
}
