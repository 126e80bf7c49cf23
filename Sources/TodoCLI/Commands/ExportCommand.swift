import ArgumentParser
import Foundation
import TodoCore
import TodoInterchange

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every todo as JSON or as todo.txt lines.",
        discussion: """
            JSON, the default, is the same array as list --json --all, with every field, \
            and todo import reads it back.

            --to todotxt writes one todo.txt line per todo, oldest first: x and the \
            completion date if done, else (A) (B) (C) for high, medium, low priority; \
            the creation date; the text; each tag as +tag (a tag written @context stays \
            @context); due:YYYY-MM-DD (a due with a time gives its date). todo.txt has no \
            IDs, notes or repeats: those are left out. todo import --from todotxt reads it \
            back to the same text, done marks, priorities, tags and due dates.

            Examples:
              todo export > todos.json
              todo export --to todotxt > todo.txt
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The format to write.", valueName: "format"))
    var to: ExportFormat = .json

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic(reading: true)
        let out = OutputBuffer()
        switch to {
        case .json:
            var array = TodoJSON.ArrayWriter(to: out, absentParents: try db.absentParents())
            try await logic.readTodos(TodoRequest(status: .all)) { array.write($0); return true }
            array.finish()
        case .todotxt:
            var items: [TodoItem] = []
            try await logic.readTodos(TodoRequest(status: .all)) { items.append($0); return true }
            for item in items.reversed() {
                out.write(TodoTxt.line(for: item, timeZone: .current) + "\n")
            }
        }
    }
}

/// The formats `todo export --to` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case json, todotxt
}
