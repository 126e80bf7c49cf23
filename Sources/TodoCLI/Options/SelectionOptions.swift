import ArgumentParser
import Foundation
import TodoCore

/// The filters with which `done`, `undone`, `rm`, `tag` (and `edit --where`)
/// change many todos at once instead of the ones named by ID: the todos
/// `todo list` shows with the same filters (the context that is on
/// included), pending ones unless `--all`.
struct SelectionOptions: ParsableArguments {
    @Option(name: [.customShort("q"), .long], help: ArgumentHelp("Select the todos whose text contains this, ignoring case.", valueName: "text"))
    var query: String?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Select the todos with this tag; again for all of several.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Select the todos without this tag.", valueName: "tag"))
    var excludedTags: [String] = []

    @Option(help: ArgumentHelp("Select the todos of this project and its sub-projects, or none.", valueName: "project"))
    var project: String?

    @Option(help: ArgumentHelp("Select the todos due: overdue, today, tomorrow, week, 7d (the next 7 days), a date, or none.", valueName: "when"))
    var due: String?

    @Option(help: ArgumentHelp("Select the todos due before this date.", valueName: "date"))
    var dueBefore: String?

    @Option(help: ArgumentHelp("Select the todos due after this date.", valueName: "date"))
    var dueAfter: String?

    @Option(help: ArgumentHelp("Select the todos of this priority, or none.", valueName: "priority"))
    var priority: PriorityArgument?

    @Flag(help: "Select among pending and done todos alike (without it: pending ones; for undone, done ones).")
    var all = false

    @Flag(help: "Change more than \(SelectionOptions.askAbove) todos without asking.")
    var yes = false

    @Flag(help: "Show what would change, and change nothing.")
    var dryRun = false

    /// ArgumentParser's complaint about `--where`'s words, in one line.
    static func message(for error: any Error) -> String {
        var text = SelectionOptions.fullMessage(for: error)
        text = text.split(separator: "\n").first.map(String.init) ?? text
        return text.hasPrefix("Error: ") ? String(text.dropFirst("Error: ".count)) : text
    }

    /// More todos than this selected by a filter are asked about first.
    static let askAbove = 3

    /// Whether any filter is given.
    var isFiltering: Bool {
        query != nil || !tags.isEmpty || !excludedTags.isEmpty || project != nil || due != nil || dueBefore != nil
            || dueAfter != nil || priority != nil
    }

    /// Refuses a mix of IDs and filters, and neither, for `command`.
    func check(ids: [String], command: String, example: String) throws {
        if !ids.isEmpty, isFiltering {
            throw ValidationError("give IDs or filters, not both: todo \(command) \(ids.joined(separator: " ")) changes those todos")
        }
        if ids.isEmpty, !isFiltering {
            throw ValidationError("give the IDs of the todos, or filters that select them, e.g. todo \(command) \(example)")
        }
        if all, !isFiltering {
            throw ValidationError("--all widens a filter to done todos: give a filter with it, or IDs alone")
        }
        _ = try request(pending: true, context: nil)
    }

    /// What the filters select: `pending` todos, or done ones (`undone`), or
    /// both with `--all`; narrowed by `context`.
    func request(pending: Bool, context: TodoContext?) throws -> TodoRequest {
        try ListFilters.validate(tags: tags, excludedTags: excludedTags)
        let filters = ListFilters(
            tags: tags, excludedTags: excludedTags,
            due: try ListFilters.dueFilter(due: due, before: dueBefore, after: dueAfter, now: Date(), timeZone: .current),
            priority: priority?.filter, project: try ListFilters.projectFilter(project)
        )
        return filters.request(status: all ? .all : pending ? .pending : .done, query: query ?? "", context: context)
    }

    /// The todos the filters select, in list order.
    func selected(in db: any TodoDatabase, pending: Bool) throws -> [ListedTodo] {
        try db.fetchListed(request(pending: pending, context: db.savedContexts().active))
    }

    /// Whether to go ahead with changing `todos`: yes for a few, with
    /// `--yes`, or when a person at a terminal answers y; else an error.
    func confirm(_ todos: [ListedTodo], doing verb: String) throws {
        guard todos.count > Self.askAbove, !yes, !dryRun else { return }
        guard Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDERR_FILENO) else {
            throw SelectionError.needsYes(count: todos.count, verb: verb)
        }
        FileHandle.standardError.write(Data("\(verb) \(todos.count) todos? [y/N] ".utf8))
        guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw SelectionError.declined
        }
    }
}

/// Why a change by filter did not go ahead.
enum SelectionError: Error, Equatable, CustomStringConvertible {
    case needsYes(count: Int, verb: String)
    case declined
    case nothingSelected

    var description: String {
        switch self {
        case let .needsYes(count, verb):
            "the filters select \(count) todos to \(verb.lowercased()): add --yes to go ahead, or --dry-run to see them first"
        case .declined:
            "nothing was changed"
        case .nothingSelected:
            "no todo passes these filters: nothing was changed (todo list with the same filters shows what they select)"
        }
    }
}
