import ArgumentParser
import TodoCore
import TodoStorage

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a todo.",
        discussion: """
            Several words are joined with spaces. Text is trimmed, must not be empty, \
            must fit on one line, and holds at most \(TodoText.maximumLength) characters; \
            a tab becomes a space. Text that starts with a dash goes after --.

            Examples:
              todo add "buy milk"
              todo add call the bank --json
              todo add -- -5 degrees
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The todo's text.")
    var words: [String]

    @MainActor
    mutating func run() async throws {
        try await Self.add(words: words, db: database.open(), json: output.json)
    }

    /// Adds the todo and prints it; what `run` does, with plain values (see `QuickInvocation`).
    @MainActor
    static func add(words: [String], db: AppDatabase, json: Bool) async throws {
        let item = try await db.logic.addTodo(text: words.joined(separator: " "))
        let out = OutputBuffer()
        if json {
            out.write(TodoJSON.object(item) + "\n")
        } else {
            let added = try db.resolveListed(idPrefixes: [item.idString])[0]
            out.write(TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0).change("Added", added))
        }
    }
}
