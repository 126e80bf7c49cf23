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
            Give at least one change.

            \(DueDateHelp.grammar)

            Examples:
              todo edit 3f2a "buy oat milk"
              todo edit 3f2a --due tomorrow --priority high
              todo edit 3f2a --tag errands --untag home --note none
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

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("daily, weekly, monthly, yearly, Nd, Nw, Nm, Ny, or none. Needs a due date.", valueName: "repeat")
    )
    var recurrence: String?

    @Option(help: ArgumentHelp(DueDateHelp.project + " none clears it.", valueName: "project"))
    var project: String?

    @Option(help: ArgumentHelp(DueDateHelp.wait + " none clears it.", valueName: "date"))
    var wait: String?

    @Option(help: ArgumentHelp(DueDateHelp.scheduled + " none clears it.", valueName: "date"))
    var scheduled: String?

    @Option(help: ArgumentHelp(DueDateHelp.until + " none clears it.", valueName: "date"))
    var until: String?

    @Argument(help: "ID (or unique prefix) of the todo.")
    var id: String

    @Argument(help: "The new text (optional).")
    var words: [String] = []

    var fields: PlanningArguments {
        PlanningArguments(due: due, priority: priority, tags: tags, untags: untags, note: note, recurrence: recurrence,
            project: project, wait: wait, scheduled: scheduled, until: until
        )
    }

    func validate() throws {
        if words.isEmpty && fields.isEmpty {
            throw ValidationError(
                "nothing to change: give new text or a field, e.g. todo edit \(ShellWord.quoted(id)) --due fri --priority high"
            )
        }
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        let edit = try fields.edit(text: words.isEmpty ? nil : words.joined(separator: " "), now: Date(), timeZone: .current)
        let edited = try await logic.editTodo(idPrefix: id, edit: edit)
        try printChanged([edited], verb: "Edited", db: db, json: output.json)
    }
}
