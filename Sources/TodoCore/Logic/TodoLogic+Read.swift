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

    /// The todos `request` ranks first, most urgent first: what `todo next` lists.
    public func nextTodos(_ request: NextRequest) async throws(TodoError) -> [RankedTodo] {
        try await run { [storage] in
            try await storage.nextTodos(request)
        } then: { _ in }
    }

    /// Of the parents `items` name, those that no longer exist: deleting a
    /// parent leaves its subtasks on their own, and they show no parent
    /// (`TodoItem.showing(absentParents:)`), though the link stays so that
    /// undoing the delete, here or on another machine, puts them back under it.
    public func absentParents(of items: [TodoItem]) async throws(TodoError) -> Set<TodoItem.ID> {
        let named = Set(items.compactMap(\.parent))
        guard !named.isEmpty else { return [] }
        return try await run { [storage] in
            named.subtracting(try await storage.todos(ids: Array(named)).map(\.id))
        } then: { _ in }
    }

    /// The subtasks of the todos `ids` names, down every level, parents first.
    public func subtasks(of ids: [TodoItem.ID]) async throws(TodoError) -> [TodoItem] {
        try await run { [storage] in
            try await storage.subtasks(of: ids)
        } then: { _ in }
    }

    /// The todos `item` is linked with: its parent and the todos that block
    /// it (those that still exist), and its subtasks, for `todo show`.
    public func relatives(of item: TodoItem) async throws(TodoError) -> TodoRelatives {
        try await run { [storage] in
            let linked = try await storage.todos(ids: (item.parent.map { [$0] } ?? []) + item.blockedBy)
            let byID = Dictionary(linked.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let subtasks = try await storage.subtasks(of: [item.id]).filter { $0.parent == item.id }
            return TodoRelatives(
                parent: item.parent.flatMap { byID[$0] }, blockers: item.blockedBy.compactMap { byID[$0] }, subtasks: subtasks,
                goneBlockers: item.blockedBy.filter { byID[$0] == nil }
            )
        } then: { _ in }
    }
}
