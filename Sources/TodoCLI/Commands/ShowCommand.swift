import ArgumentParser
import TodoCore

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every detail of a todo.",
        discussion: """
            Example:
              todo show 3f2a
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "ID (or unique prefix) of the todo.")
    var id: String

    @MainActor
    mutating func run() async throws {
        let (logic, _) = try database.logic(reading: true)
        let todo = try await logic.todos(idPrefixes: [id])[0]
        let out = OutputBuffer()
        if output.json {
            out.write(todo.item.json(absentParents: try await logic.absentParents(of: [todo.item])) + "\n")
        } else {
            let relatives = try await logic.relatives(of: todo.item)
            out.write(TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0).details(todo, relatives: relatives))
        }
    }
}
