import ArgumentParser
import Foundation
import TodoCore

struct ProjectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projects",
        abstract: "List the projects of pending todos, as a tree, with how many each holds.",
        discussion: """
            Each project's count takes in its sub-projects' todos: home counts those of \
            home and of home.garden. A project shows while one of its todos is pending; \
            waiting todos count, those past their until date do not. Give a todo a project with todo add --project home.garden \
            or todo edit ID --project home.garden.

            Examples:
              todo projects
              todo projects --json
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @MainActor
    mutating func run() async throws {
        let db = try database.openForReading()
        let rows = selectProjectTree(counts: try db.pendingProjectCounts(now: Date(), timeZone: .current))
        let out = OutputBuffer()
        if output.json {
            let objects = rows.map { row in
                "{\"project\":\(JSONText.quoted(row.project)),\"pending\":\(row.pending),\"own\":\(row.own)}"
            }
            out.write(objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n")
            return
        }
        guard !rows.isEmpty else {
            out.write("No pending todo has a project. Give one a project with: todo edit ID --project home.garden\n")
            return
        }
        let width = rows.map { 2 * $0.depth + $0.leaf.count }.max() ?? 0
        for row in rows {
            let label = String(repeating: "  ", count: row.depth) + row.leaf
            out.write(label + String(repeating: " ", count: width - label.count + 2) + String(row.pending) + "\n")
        }
    }
}
