import ArgumentParser
import TodoCore

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete todos.",
        discussion: """
            Takes one or more IDs or unique ID prefixes, or filters that select the \
            todos as todo list does (pending ones, or --all). If any ID is unknown or \
            ambiguous, nothing is deleted. More than three todos selected by filters are \
            asked about first on a terminal (--yes goes ahead); --dry-run shows them. \
            todo undo brings them all back.

            Examples:
              todo rm 3f2a 91bc
              todo rm --tag someday --all --dry-run
            """,
        aliases: ["remove", "delete"]
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup(title: "Filters (instead of IDs)") var selection: SelectionOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String] = []

    func validate() throws {
        try selection.check(ids: ids, command: "rm", example: "3f2a, or todo rm --tag someday")
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        var ids = ids
        if selection.dryRun, !ids.isEmpty {
            return try printSelected(try db.resolveListed(idPrefixes: ids), verb: "Would delete", db: db, json: output.json)
        }
        if ids.isEmpty {
            let selected = try selection.selected(in: db, pending: true)
            guard !selected.isEmpty else { throw SelectionError.nothingSelected }
            if selection.dryRun { return try printSelected(selected, verb: "Would delete", db: db, json: output.json) }
            try selection.confirm(selected, doing: "Delete")
            ids = selected.map(\.item.idString)
        }
        let prefixes = try ids.map { try TodoID.normalizedPrefix($0) }
        try await logic.checkPrefixesForChange(prefixes)
        // Resolve first, so the short IDs printed are the ones the user saw.
        let listed = TodoID.distinct(try db.resolveListed(idPrefixes: prefixes), by: \.item.id)
        try await logic.deleteTodos(idPrefixes: listed.map(\.item.idString))
        let out = OutputBuffer()
        if output.json {
            // Read after the delete: a parent deleted with its subtask shows as none.
            let absent = try db.absentParents(of: listed.map(\.item))
            TodoJSON.writeArray(to: out, absentParents: absent) { emit in listed.forEach { emit($0.item) } }
        } else {
            let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
            listed.forEach { out.write(formatter.change("Deleted", $0)) }
        }
    }
}
