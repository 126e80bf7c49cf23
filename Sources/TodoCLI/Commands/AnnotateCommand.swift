import ArgumentParser
import TodoCore

struct AnnotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotate",
        abstract: "Add a dated line to a todo's note.",
        discussion: """
            The line is today's date and the text, as Taskwarrior's annotations are \
            (and as todo import --from taskwarrior writes them). todo undo takes it back.

            Examples:
              todo annotate 3f2a called Bob, he will send it Monday
              todo annotate 3f2a -- -5 degrees forecast
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "ID (or unique prefix) of the todo.")
    var id: String

    @Argument(help: "The text of the line.")
    var words: [String] = []

    func validate() throws {
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("nothing to add: give the text after the ID, e.g. todo annotate \(id) called Bob")
        }
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic()
        let text = words.joined(separator: " ")
        let item = try await logic.annotate(idPrefix: id, text: text)
        try printChanged([item], verb: "Annotated", db: db, json: output.json)
    }
}
