import ArgumentParser
import TodoCore

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete todos.",
        discussion: """
            Takes one or more IDs or unique ID prefixes. If any ID is unknown or \
            ambiguous, nothing is deleted.

            Example:
              todo rm 3f2a 91bc
            """,
        aliases: ["remove", "delete"]
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String]

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        let prefixes = try ids.map { try TodoID.normalizedPrefix($0) }
        try await logic.checkPrefixesForChange(prefixes)
        // Resolve first, so the short IDs printed are the ones the user saw.
        let listed = TodoID.distinct(try db.resolveListed(idPrefixes: prefixes), by: \.item.id)
        try await logic.deleteTodos(idPrefixes: listed.map(\.item.idString))
        let out = OutputBuffer()
        if output.json {
            TodoJSON.writeArray(to: out) { emit in listed.forEach { emit($0.item) } }
        } else {
            let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
            listed.forEach { out.write(formatter.change("Deleted", $0)) }
        }
    }
}
