import ArgumentParser
import Foundation
import TodoCore

/// Which todos `list` shows.
enum StatusFilter: String, Sendable {
    case pending, done, all

    var requestStatus: TodoRequest.Status {
        switch self {
        case .pending: .pending
        case .done: .done
        case .all: .all
        }
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List todos, newest first.",
        discussion: """
            --query matches text containing the query, ignoring case (É matches é), with \
            every character taken literally (% and _ are not wildcards). The query is \
            remembered: --last-query runs it again.

            Filters combine with each other, with --query and with --pending, --done or \
            --all. --tag keeps the todos that have every tag given. --due keeps: overdue, \
            due on a day before today or at a time already past; today or tomorrow; week, \
            due from today through this week's Sunday; or a date (see below), due on that \
            day. A due time counts on the day it falls on here.

            --sort due lists the soonest due first and todos without a due date last; \
            --sort priority lists high first and todos without a priority last; ties stay \
            newest first.

            --project keeps a project and its sub-projects (--project home keeps home and \
            home.garden); --project none, the todos without one. Todos waiting (--wait) \
            are left out until their date, and unfinished todos past their --until date \
            for good; --waiting lists the waiting ones, and --all every todo, as \
            Taskwarrior's all does, those marked (waiting) or (past until). Projects \
            match their case: a project that differs only in case is said. \
            Taskwarrior's filters work too: +tag, -tag, project:, due:, priority:.

            Each todo shows its due date (month-day this year, red once overdue on a \
            terminal), !high, !medium or !low, its +project and its #tags.

            \(DueDateHelp.grammar)

            Examples:
              todo list
              todo list --query milk --all
              todo list --done --limit 10 --json
              todo list --due overdue
              todo list --tag home --tag bills --sort due
              todo list --due week --priority high
              todo list --project home --not-tag someday
              todo list --waiting
              todo list +family project:home due:today
            """,
        aliases: ["ls"]
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .long], help: "Only todos whose text contains this, ignoring case.")
    var query: String?

    @Flag(help: "Search again for the query of the last --query.")
    var lastQuery = false

    // Three flags rather than an `EnumerableFlag`: its help adds "(default:
    // --pending)" and two of them fail with "had already been set".
    @Flag(help: "Show pending todos (the default).")
    var pending = false

    @Flag(help: "Show done todos only.")
    var done = false

    @Flag(help: "Show every todo: pending and done, waiting and past their until date.")
    var all = false

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only todos with this tag; give --tag again for todos with all of them.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Only todos without this tag; give --not-tag again to leave out several.", valueName: "tag"))
    var excludedTags: [String] = []

    @Option(help: ArgumentHelp("Only todos due: overdue, today, tomorrow, week, 7d (the next 7 days), on a date, or none (no due date).", valueName: "when"))
    var due: String?

    @Option(help: ArgumentHelp("Only todos due before this date (the day before it and earlier).", valueName: "date"))
    var dueBefore: String?

    @Option(help: ArgumentHelp("Only todos due after this date (the day after it and later).", valueName: "date"))
    var dueAfter: String?

    @Option(help: ArgumentHelp("Only todos of this priority, or none (no priority).", valueName: "priority"))
    var priority: PriorityArgument?

    @Option(help: ArgumentHelp("Only todos of this project and its sub-projects (home holds home.garden), or none (no project).", valueName: "project"))
    var project: String?

    @Flag(help: "Show only the todos still waiting (hidden by --wait until their date); the others are left out.")
    var waiting = false

    @Option(help: ArgumentHelp("The order: newest first, soonest due first, or highest priority first.", valueName: "order"))
    var sort: SortArgument = .created

    // Unconditional, so that `--limit -1` is read as a number and refused as one.
    @Option(parsing: .unconditional, help: "Show at most this many todos.")
    var limit: Int?

    /// Words after `list`: Taskwarrior's filters (`+work`, `project:work`,
    /// `due:today`, `priority:H`; `-work` arrives as `--not-tag work`), or
    /// a search typed without `--query`, refused with a hint.
    @Argument(help: .hidden)
    var words: [String] = []

    var status: StatusFilter { all ? .all : done ? .done : .pending }

    func validate() throws {
        let rest = try ListFilters.taskwarriorFilters(words, given: (project, due, priority)).rest
        if !rest.isEmpty {
            let text = rest.joined(separator: " ")
            let looks = rest.first { $0.contains(":") && $0.first?.isLetter == true }
            throw ValidationError(
                looks.map { "'\($0)' is not a filter todo list reads (+tag, -tag, project:, due:, priority:): see todo list --help" }
                    ?? "todo list takes no text: to list the todos containing it, use todo list --query \(ShellWord.quoted(text))"
            )
        }
        if [pending, done, all].filter({ $0 }).count > 1 {
            throw ValidationError("--pending, --done and --all each choose what to list: give one of them")
        }
        if let limit, limit < 1 {
            throw ValidationError("--limit must be at least 1, got \(limit)")
        }
        if query != nil && lastQuery {
            throw ValidationError("--query and --last-query cannot be used together: pick one")
        }
        try ListFilters.validate(tags: tags, excludedTags: excludedTags)
        _ = try filters
    }

    /// The planning filters and order, read now.
    var filters: ListFilters {
        get throws {
            let words = try ListFilters.taskwarriorFilters(words, given: (project, due, priority))
            return ListFilters(
                tags: tags + words.tags, excludedTags: excludedTags,
                due: try ListFilters.dueFilter(due: due ?? words.due, before: dueBefore, after: dueAfter, now: Date(), timeZone: .current),
                priority: (priority ?? words.priority)?.filter, project: try ListFilters.projectFilter(project ?? words.project),
                waiting: waiting, sort: sort.sort
            )
        }
    }

    @MainActor
    mutating func run() async throws {
        try await Self.list(
            db: database.openForReading(), json: output.json,
            query: query, lastQuery: lastQuery, status: status, filters: try filters, limit: limit
        )
    }

    /// Prints the todos asked for; what `run` does, with plain values (see `QuickInvocation`).
    @MainActor
    static func list(
        db: any TodoDatabase, json: Bool,
        query: String? = nil, lastQuery: Bool = false, status: StatusFilter = .pending,
        filters: ListFilters = ListFilters(), limit: Int? = nil
    ) async throws {
        let logic = TodoLogic(over: db)
        if let query {
            // Remembered for --last-query, unless the database cannot be written.
            try await logic.setQuery(query, remember: !db.isReadOnly)
        } else if lastQuery {
            try await logic.recoverLastQuery()
            guard !logic.state.query.isEmpty else { throw ListError.noSavedQuery }
        }
        let context = try db.savedContexts().active
        let request = filters.request(status: status.requestStatus, query: logic.state.query, limit: limit, context: context)
        if case let .within(project) = filters.project, case let near = try db.projectsDifferingInCase(from: project), !near.isEmpty {
            // `--project Work` with only `work` stored: said, not an empty list to wonder at.
            let named = near.map { "“\($0)” (todo list --project \(ShellWord.quoted($0)))" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("No todo is in project “\(project)”; projects match their case, and there is \(named)\n".utf8))
        }
        let out = OutputBuffer()
        if json {
            var array = TodoJSON.ArrayWriter(to: out, absentParents: try db.absentParents())
            try await logic.readTodos(request) { array.write($0); return true }
            array.finish()
        } else if Terminal.isTerminal() {
            // For a person: a first pass finds the widest ID shown (and whether
            // anything is), so the columns fit the list, not the whole database.
            var widest = 0
            var count = 0
            try db.forEachRawTodo(request) { row in
                widest = max(widest, min(row.idPrefixLength, row.id.count))
                count += 1
            }
            if let context {
                out.write("Context \(context.name) (\(context.options)); todo context none lists every todo\n")
            }
            guard count > 0 else {
                out.write(emptyListMessage(status: status, query: request.query, filtered: filters.isFiltering || context != nil) + "\n")
                return
            }
            let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: widest, columns: Terminal.columns())
            try write(request, db: db, formatter: formatter, to: out)
        } else {
            // Piped: one pass, streamed, the ID column as wide as the widest in the database.
            let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: try db.widestShortID())
            try write(request, db: db, formatter: formatter, to: out)
        }
    }

    /// The lines of the todos `request` selects, subtasks under their
    /// parents (`TreeListing`) once any todo has one.
    private static func write(_ request: TodoRequest, db: any TodoDatabase, formatter: TodoFormatter, to out: OutputBuffer) throws {
        if request.limit != nil {
            // A few todos: read whole, the tree among them.
            guard try db.hasLinkedTodos() else { return try db.forEachRawTodo(request) { formatter.write($0, to: out) } }
            return try TreeListing.writeLimited(db.fetchListed(request), db: db, formatter: formatter, to: out)
        }
        guard let tree = try TreeListing(db: db, request: request, formatter: formatter) else {
            return try db.forEachRawTodo(request) { formatter.write($0, to: out) }
        }
        try db.forEachRawTodo(request) { tree.write($0, to: out) }
        tree.finish(to: out)
    }

    /// What a terminal shows instead of an empty list: that it is empty, and what to do.
    static func emptyListMessage(status: StatusFilter, query: String, filtered: Bool = false) -> String {
        if filtered {
            return switch status {
            case .pending: "No pending todo passes these filters (--all looks at the done ones too)."
            case .done: "No done todo passes these filters (--all looks at the pending ones too)."
            case .all: "No todo passes these filters."
            }
        }
        if query.isEmpty {
            return switch status {
            case .pending: #"No pending todos. Add one with: todo add "…""#
            case .done: "No done todos."
            case .all: #"No todos. Add one with: todo add "…""#
            }
        }
        return switch status {
        case .pending: #"No pending todo contains "\#(query)" (--all searches the done ones too)."#
        case .done: #"No done todo contains "\#(query)" (--all searches the pending ones too)."#
        case .all: #"No todo contains "\#(query)"."#
        }
    }
}

/// Why `list` could not list.
enum ListError: Error, Equatable, CustomStringConvertible {
    /// `--last-query`, with no `--query` ever given.
    case noSavedQuery

    var description: String {
        switch self {
        case .noSavedQuery:
            "there is no last query yet: search once with todo list --query TEXT, then --last-query repeats it"
        }
    }
}
