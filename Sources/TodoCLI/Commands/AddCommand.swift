import ArgumentParser
import Foundation
import TodoCore

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a todo.",
        discussion: """
            Several words are joined with spaces. Text is trimmed, must not be empty, \
            must fit on one line, and holds at most \(TodoText.maximumLength) characters; \
            a tab becomes a space. Text that starts with a dash goes after --. A \
            subtask (--parent) is of its parent's project unless given one.

            Taskwarrior's words set fields as the options do: \(TaskwarriorWords.dateWords), \
            project: (pro:), priority: (pri:, H M L), depends: (IDs), recur: and +tag; \
            what was read is said on standard error. After --, every word is text.

            \(DueDateHelp.grammar)

            \(DueDateHelp.repeats)

            Examples:
              todo add "buy milk"
              todo add "pay rent" --due fri --priority high --tag home --tag bills --note "IBAN in mail"
              todo add water the plants --due today --repeat 3d
              todo add "buy paint" --parent 3f2a --blocked-by 91bc
              todo add "Call mum" due:tomorrow +family pri:H
              todo add call the bank --json
              todo add -- -5 degrees
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("When it is due: a date, or a date and time (see below).", valueName: "date"))
    var due: String?

    @Option(help: ArgumentHelp("How much it matters.", valueName: "priority"))
    var priority: PriorityArgument?

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag, one word; give --tag again for more.", valueName: "tag"))
    var tags: [String] = []

    @Option(help: ArgumentHelp("A note; it may hold several lines.", valueName: "text"))
    var note: String?

    @OptionGroup var repeating: RepeatOptions

    @OptionGroup var plan: PlanOptions

    @Argument(help: "The todo's text; Taskwarrior's words (due:fri, +tag, project:home) set fields.")
    var words: [String]

    var fields: PlanningArguments {
        PlanningArguments(
            due: due, priority: priority, tags: tags, note: note, recurrence: repeating.recurrence,
            repeatCount: repeating.count, fromCompletion: repeating.fromCompletion, plan: plan.values
        )
    }

    @MainActor
    mutating func run() async throws {
        try await Self.add(words: TodoCommand.markingTerminator(words), fields: fields, db: database.open(), json: output.json)
    }

    /// Adds the todo and prints it; what `run` does, with plain values (see `QuickInvocation`).
    @MainActor
    static func add(words: [String], fields: PlanningArguments = PlanningArguments(), db: any TodoDatabase, json: Bool) async throws {
        let now = Date()
        let read = try TodoError.readingField { () throws(TodoFieldError) in try TaskwarriorWords(words, now: now, timeZone: .current) }
        let text = read.text.joined(separator: " ")
        let options = try fields.edit(text: text, now: now, timeZone: .current)
        let edit = try TodoError.readingField { () throws(TodoFieldError) in try options.adding(read) }
        let logic = TodoLogic(over: db)
        // A context that is on gives the todo its project and tags.
        try await logic.loadContext()
        let item = try await logic.addTodo(text: text, fields: edit)
        TaskwarriorEcho.write(read)
        let out = OutputBuffer()
        if json {
            out.write(item.json(absentParents: try await logic.absentParents(of: [item])) + "\n")
        } else {
            let added = try db.resolveListed(idPrefixes: [item.idString])[0]
            out.write(TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0).change("Added", added))
        }
    }
}
