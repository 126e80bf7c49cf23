import ArgumentParser
import Foundation
import TodoCore

struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Bring back what undo took back last.",
        discussion: """
            Makes again the change todo undo (or u in todo ui) took back last, and says \
            which; run it again for the one undone before it. A change made since the \
            undo ends what redo can bring back. If a todo the change touched was changed \
            since by a sync, redo refuses and names it.

            Examples:
              todo undo
              todo redo
            """
    )

    @OptionGroup var database: DatabaseOptions

    @MainActor
    mutating func run() async throws {
        let (logic, _) = try database.logic()
        let bar = ProgressBar("Redoing")
        defer { bar.end() }
        let change = try await logic.redo { bar.show(done: $0.done, total: $0.total) }
        bar.end()
        OutputBuffer().write("Redid the \(change.summary).\n")
    }
}
