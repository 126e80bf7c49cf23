import ArgumentParser
import TodoCore

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Replace a todo's text.",
        discussion: """
            Several words are joined with spaces; the same rules as for add apply.

            Example:
              todo edit 3f2a "buy oat milk"
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "ID (or unique prefix) of the todo.")
    var id: String

    @Argument(help: "The new text.")
    var words: [String]

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        let edited = try await logic.editTodo(idPrefix: id, text: words.joined(separator: " "))
        try printChanged([edited], verb: "Edited", db: db, json: output.json)
    }
}
