import Foundation
import TestSupport
import Testing

/// `todo-server user add NAME --database DATABASE`: the token it prints.
func addTodoServerAccount(_ name: String, database: String) async throws -> String {
    let process = try ServerProcess(["user", "add", name, "--database", database])
    #expect(try await process.exitStatus() == 0, "\(process.printed)")
    return try #require(process.printed.split(separator: "\n").first { $0.hasPrefix("todo_") }.map(String.init))
}
