import ArgumentParser
import TodoCore

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every todo as JSON, newest first.",
        discussion: """
            The output is the same JSON array as list --json --all, and todo import \
            reads it back.

            Example:
              todo export > todos.json
            """
    )

    @OptionGroup var database: DatabaseOptions

    mutating func run() async throws {
        let db = try database.open()
        let out = OutputBuffer()
        try TodoJSON.writeArray(to: out) { emit in
            try db.forEachTodo(TodoRequest(status: .all)) { emit($0.item); return true }
        }
    }
}
