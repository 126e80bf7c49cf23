// MARK: - Reading

/// Reads for a front end that prints or answers rather than keeps a view
/// (`todo list`, `todo show`, `todo export`, `todo status`, `todo mcp`): they go
/// through storage like every action, and leave the state as it is.
extension TodoLogic {
    /// The todos the prefixes name, in their order, each with its short ID;
    /// `.notFound` or `.ambiguousID` (with the candidates) for a prefix that
    /// names no todo or several.
    public func todos(idPrefixes: [String]) async throws(TodoError) -> [ListedTodo] {
        try await run { [storage] in
            try await storage.resolve(idPrefixes: try Self.normalized(idPrefixes))
        } then: { _ in }
    }

    /// Calls `body` with each todo `request` selects, in its order, one at a
    /// time, so memory stays flat however many there are; `body` returns
    /// false to stop.
    public func readTodos(_ request: TodoRequest, _ body: (TodoItem) throws -> Bool) async throws(TodoError) {
        try await run { [storage] in
            try await storage.readTodos(request, body)
        } then: { _ in }
    }
}
