import ArgumentParser
import TodoCore
import TodoStorage

/// Which todos `list` shows.
enum StatusFilter: String, EnumerableFlag {
    case pending, done, all

    static func help(for value: StatusFilter) -> ArgumentHelp? {
        switch value {
        case .pending: "Show pending todos (the default)."
        case .done: "Show done todos only."
        case .all: "Show pending and done todos."
        }
    }

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

            Examples:
              todo list
              todo list --query milk --all
              todo list --done --limit 10 --json
            """,
        aliases: ["ls"]
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .long], help: "Only todos whose text contains this, ignoring case.")
    var query: String?

    @Flag(help: "Search again for the query of the last --query.")
    var lastQuery = false

    @Flag var status: StatusFilter = .pending

    @Option(help: "Show at most this many todos.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 {
            throw ValidationError("--limit must be at least 1, got \(limit)")
        }
        if query != nil && lastQuery {
            throw ValidationError("--query and --last-query cannot be used together: pick one")
        }
    }

    @MainActor
    mutating func run() async throws {
        try await Self.list(
            db: database.open(), json: output.json,
            query: query, lastQuery: lastQuery, status: status, limit: limit
        )
    }

    /// Prints the todos asked for; what `run` does, with plain values (see `QuickInvocation`).
    @MainActor
    static func list(
        db: AppDatabase, json: Bool,
        query: String? = nil, lastQuery: Bool = false, status: StatusFilter = .pending, limit: Int? = nil
    ) async throws {
        let logic = db.logic
        if let query {
            try await logic.setQuery(query)
        } else if lastQuery {
            try await logic.recoverLastQuery()
        }
        let request = TodoRequest(status: status.requestStatus, query: logic.state.query, limit: limit)
        let out = OutputBuffer()
        if json {
            try TodoJSON.writeArray(to: out) { emit in
                try db.forEachTodo(request) { emit($0.item); return true }
            }
        } else {
            let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: try db.widestShortID())
            try db.forEachRawTodo(request) { formatter.write($0, to: out) }
        }
    }
}
