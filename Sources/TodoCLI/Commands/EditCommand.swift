import ArgumentParser
import Foundation
import TodoCore

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a todo's text, due date, priority, tags, note or repeat.",
        discussion: """
            New text, if given, replaces the old; several words are joined with spaces \
            and the same rules as for add apply. Each option changes its field only; \
            none clears it (--due none, --priority none, --note none, --repeat none). \
            Give at least one change. Taskwarrior's words change fields too (due:fri, \
            pri:H, project:home, +tag, -tag; due: clears), as add reads them.

            \(DueDateHelp.grammar)

            \(DueDateHelp.repeats)

            --where changes every todo that list's filters, given as one argument, \
            select (the context that is on included): more than three are asked about \
            first on a terminal (--yes goes ahead), --dry-run shows the todos as they \
            would be, each field before → after, and one todo undo takes the whole change back. --untag then \
            skips the todos without the tag.

            Examples:
              todo edit 3f2a "buy oat milk"
              todo edit 3f2a --due tomorrow --priority high
              todo edit 3f2a --tag errands --untag home --note none
              todo edit 3f2a --parent 91bc --blocked-by 77e0
              todo edit 3f2a pri:H -family +urgent
              todo edit --where "--tag errands --due today" --due tomorrow
              todo edit --where "--project home --all" --project house --yes
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("The new due date (see below), or none.", valueName: "date"))
    var due: String?

    @Option(help: ArgumentHelp("How much it matters; none clears it.", valueName: "priority"))
    var priority: PriorityArgument?

    @Option(name: .customLong("tag"), help: ArgumentHelp("Add a tag; give --tag again for more.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("untag"), help: ArgumentHelp("Remove a tag; give --untag again for more.", valueName: "tag"))
    var untags: [String] = []

    @Option(help: ArgumentHelp("The new note, or none.", valueName: "text"))
    var note: String?

    @OptionGroup var repeating: RepeatOptions

    @OptionGroup var plan: PlanOptions

    @Option(help: ArgumentHelp("A todo that no longer blocks it; give --unblock again for more.", valueName: "id"))
    var unblock: [String] = []

    // Unconditional: its value starts with a dash (`--where "--tag home"`).
    @Option(
        name: .customLong("where"),
        parsing: .unconditional,
        help: ArgumentHelp("Change every todo these filters select instead of one ID: list's filters, quoted as one argument.", valueName: "filters")
    )
    var filters: String?

    @Flag(help: "With --where: change more than \(SelectionOptions.askAbove) todos without asking.")
    var yes = false

    @Flag(help: "Show the todos as they would be, and change nothing.")
    var dryRun = false

    @Argument(help: "ID (or unique prefix) of the todo.")
    var id: String?

    @Argument(help: "The new text (optional); Taskwarrior's words (due:fri, +tag, -tag) set fields.")
    var words: [String] = []

    var fields: PlanningArguments {
        PlanningArguments(
            due: due, priority: priority, tags: tags, untags: untags, note: note, recurrence: repeating.recurrence,
            repeatCount: repeating.count, fromCompletion: repeating.fromCompletion, plan: plan.values, unblock: unblock
        )
    }

    func validate() throws {
        if let filters {
            if id != nil {
                throw ValidationError("give an ID or --where, not both: todo edit --where \(ShellWord.quoted(filters)) changes the todos it selects")
            }
            if fields.isEmpty {
                throw ValidationError("nothing to change: give a field, e.g. todo edit --where \(ShellWord.quoted(filters)) --due fri")
            }
            _ = try selection(filters)
            return
        }
        guard let id else {
            throw ValidationError("give the ID of the todo, or --where with filters, e.g. todo edit 3f2a --due fri")
        }
        if words.isEmpty && fields.isEmpty {
            throw ValidationError(
                "nothing to change: give new text or a field, e.g. todo edit \(ShellWord.quoted(id)) --due fri --priority high"
            )
        }
    }

    /// `--where`'s filters read as list's options.
    func selection(_ filters: String) throws -> SelectionOptions {
        let words = QuotedWords.read(filters).map(\.text)
        var selection: SelectionOptions
        do {
            selection = try SelectionOptions.parse(words)
        } catch {
            throw ValidationError("--where \(ShellWord.quoted(filters)): \(SelectionOptions.message(for: error))")
        }
        guard selection.isFiltering else {
            throw ValidationError("--where needs a filter, e.g. --where \"--tag errands\"")
        }
        if selection.yes || selection.dryRun {
            throw ValidationError("--yes and --dry-run go outside --where's quotes: todo edit --where \"--tag errands\" --due fri --yes")
        }
        selection.yes = yes
        selection.dryRun = dryRun
        return selection
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        let now = Date()
        let read = try TodoError.readingField { () throws(TodoFieldError) in
            try TaskwarriorWords(TodoCommand.markingTerminator(words), editing: true, now: now, timeZone: .current)
        }
        let options = try fields.edit(text: read.text.isEmpty ? nil : read.text.joined(separator: " "), now: now, timeZone: .current)
        let edit = try TodoError.readingField { () throws(TodoFieldError) in try options.adding(read) }
        if let filters {
            let selection = try selection(filters)
            let selected = try selection.selected(in: db, pending: true)
            guard !selected.isEmpty else { throw SelectionError.nothingSelected }
            if !dryRun { try selection.confirm(selected, doing: "Edit") }
            let pairs = try await logic.editTodos(idPrefixes: selected.map(\.item.idString), edit: edit, dryRun: dryRun)
            let changes = pairs.map { (before: Optional($0.before), after: Optional($0.after)) }
            TaskwarriorEcho.write(read)
            return try printChanges(changes, verb: dryRun ? "Would edit" : "Edited", fields: dryRun, db: db, json: output.json)
        }
        let edited = try await logic.editTodo(idPrefix: id ?? "", edit: edit, dryRun: dryRun)
        // A dry run wrote nothing: the todo stored is the one before.
        let before = dryRun ? try await logic.todos(idPrefixes: [edited.idString]).first?.item : nil
        TaskwarriorEcho.write(read)
        try printChanges([(before, edited)], verb: dryRun ? "Would edit" : "Edited", fields: dryRun, db: db, json: output.json)
    }
}
