import ArgumentParser
import Foundation
import TodoCore

struct NextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "List the todos to do now, most urgent first.",
        discussion: """
            The pending todos, waiting and blocked ones left out, ranked by urgency: a sum of terms, \
            each a weight times a factor from 0 to 1, as Taskwarrior ranks its next \
            report. The terms and their default weights (Taskwarrior's):

            \(Self.termTable)

            A due date without a time counts from midnight. Set any weight in \
            $XDG_CONFIG_HOME/todo/config.toml (else ~/.config/todo/config.toml), \
            under [urgency], e.g. due = 8.0. --why ID shows a todo's terms.

            Examples:
              todo next
              todo next --project work --limit 5
              todo next --why 3f2a
            """
    )

    /// Urgency's terms with their default weights, a line each.
    static var termTable: String {
        UrgencyWeights.terms.map { term in
            let weight = String(format: "%5.1f", UrgencyWeights.taskwarrior[keyPath: term.weight])
            return "  " + term.name.padding(toLength: 16, withPad: " ", startingAt: 0) + weight + "  " + term.meaning
        }.joined(separator: "\n")
    }

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only todos with this tag; give --tag again for todos with all of them.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Only todos without this tag.", valueName: "tag"))
    var excludedTags: [String] = []

    @Option(help: ArgumentHelp("Only todos of this project and its sub-projects, or none.", valueName: "project"))
    var project: String?

    @Option(parsing: .unconditional, help: "Show at most this many todos.")
    var limit = 20

    @Option(help: ArgumentHelp("Show how the urgency of this todo is made, term by term.", valueName: "id"))
    var why: String?

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
        try ListFilters.validate(tags: tags, excludedTags: excludedTags)
        _ = try ListFilters.projectFilter(project)
    }

    @MainActor
    mutating func run() async throws {
        let config = try TodoConfig.load()
        let db = try database.openForReading()
        let now = Date()
        let filters = ListFilters(tags: tags, excludedTags: excludedTags, project: try ListFilters.projectFilter(project))
        let filter = filters.request(status: .pending, query: "", now: now, context: try db.savedContexts().active)
        let request = NextRequest(filter: filter, weights: config.weights, now: now, timeZone: .current, limit: limit)
        let out = OutputBuffer()
        if let why {
            let todo = try db.resolveListed(idPrefixes: [why])[0]
            // The linked todos and the blockers of this one: enough to count what it blocks and what blocks it.
            let nodes = try db.linkedTodos()
            let linked = try db.listedTodos(withIDs: Array(Set(nodes.map(\.id) + todo.item.blockedBy)))
            out.write(Self.explain(todo, request: request, linked: linked))
            return
        }
        var ranked: [RankedTodo] = []
        try db.forEachNext(request) { ranked.append($0); return true }
        if output.json {
            let absent = try db.absentParents(of: ranked.map(\.todo.item))
            let objects = ranked.map { String($0.todo.item.json(absentParents: absent).dropLast()) + ",\"urgency\":" + Self.number($0.urgency) + "}" }
            out.write(objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n")
            return
        }
        guard !ranked.isEmpty else {
            out.write("Nothing to do now: no pending todo passes (waiting ones are left out; todo list --waiting shows them).\n")
            return
        }
        let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0, now: now)
        let idWidth = ranked.map(\.todo.shortID.count).max() ?? 4
        for todo in ranked {
            let id = todo.todo.shortID
            let fields = formatter.summary(todo.todo.item)
            let urgency = String(format: "%5.1f", Double(todo.urgency) / 1_000_000)
            out.write(urgency + "  " + id + String(repeating: " ", count: idWidth - id.count) + "  " + todo.todo.item.text
                + (fields.isEmpty ? "" : "  " + fields) + "\n")
        }
    }

    /// A todo's urgency, term by term, and whether `todo next` lists it.
    static func explain(_ todo: ListedTodo, request: NextRequest, linked: [ListedTodo] = []) -> String {
        let item = todo.item
        var out = "\(todo.shortID)  \(item.text)\n"
        let blocks = BlockCounts(linked.map(\.item) + [item])
        let terms = Urgency.terms(
            of: item, weights: request.weights, now: request.now, timeZone: request.timeZone, blocking: blocks.blocking[item.id] ?? 0
        )
        let width = max(terms.map(\.reason.count).max() ?? 0, 5)
        for term in terms {
            out += "  " + term.name.padding(toLength: 10, withPad: " ", startingAt: 0)
                + term.reason.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(format: "%6.2f", term.value) + "\n"
        }
        let total = terms.reduce(0) { $0 + $1.micros }
        out += "  " + "urgency".padding(toLength: 10 + width, withPad: " ", startingAt: 0) + "  " + String(format: "%6.2f", Double(total) / 1_000_000) + "\n"
        if item.isDone {
            out += "todo next leaves it out: it is done.\n"
        } else if let wait = item.wait, !wait.isReached(now: request.now, in: request.timeZone) {
            out += "todo next leaves it out: it is waiting until \(wait.text).\n"
        } else if let until = item.until, until.isOverdue(now: request.now, in: request.timeZone) {
            out += "todo next leaves it out: it is past its until date, \(until.text).\n"
        } else if blocks.isBlocked(item) {
            let open = linked.filter { item.blockedBy.contains($0.item.id) && !$0.item.isDone }
            out += "todo next leaves it out: it is blocked by "
                + open.map { "\($0.shortID) “\($0.item.text)”" }.joined(separator: ", ") + ".\n"
        }
        return out
    }

    /// Millionths as a JSON number with up to six decimals.
    static func number(_ micros: Int64) -> String {
        var text = String(format: "%.6f", Double(micros) / 1_000_000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
