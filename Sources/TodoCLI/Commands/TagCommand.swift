import ArgumentParser
import Foundation
import TodoCore

struct TagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add tags to todos, or take them off.",
        discussion: """
            Takes one or more IDs or unique ID prefixes, or filters that select the \
            todos as todo list does (pending ones, or --all). --remove skips a todo \
            without the tag. More than three todos selected by filters are asked about \
            first on a terminal (--yes goes ahead); --dry-run shows the todos as they \
            would be, tags before → after. One todo undo takes the whole change back.

            Examples:
              todo tag 3f2a 91bc --add errands
              todo tag --project home.garden --add weekend --remove someday
              todo tag --tag work --due overdue --add urgent --yes
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("add"), help: ArgumentHelp("A tag to add; give --add again for more.", valueName: "tag"))
    var added: [String] = []

    @Option(name: .customLong("remove"), help: ArgumentHelp("A tag to take off; give --remove again for more.", valueName: "tag"))
    var removed: [String] = []

    @OptionGroup(title: "Filters (instead of IDs)") var selection: SelectionOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String] = []

    func validate() throws {
        if added.isEmpty && removed.isEmpty {
            throw ValidationError("nothing to change: give --add TAG or --remove TAG, e.g. todo tag 3f2a --add errands")
        }
        do {
            for tag in added + removed { _ = try TodoTags.validated(tag) }
        } catch {
            throw ValidationError(CommandLineError.words(error))
        }
        try selection.check(ids: ids, command: "tag", example: "3f2a --add errands, or todo tag --project home --add weekend")
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        var ids = ids
        if ids.isEmpty {
            let selected = try selection.selected(in: db, pending: true)
            guard !selected.isEmpty else { throw SelectionError.nothingSelected }
            if !selection.dryRun { try selection.confirm(selected, doing: "Tag") }
            ids = selected.map(\.item.idString)
        }
        let edit = TodoEdit(addTags: added, removeTags: removed)
        let pairs = try await logic.editTodos(idPrefixes: ids, edit: edit, dryRun: selection.dryRun)
        let changes = pairs.map { (before: Optional($0.before), after: Optional($0.after)) }
        try printChanges(changes, verb: selection.dryRun ? "Would tag" : "Tagged", fields: selection.dryRun, db: db, json: output.json)
    }
}
