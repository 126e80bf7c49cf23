/// Selectors: pure functions from state to what a view shows.
/// The filtered list is derived here, never stored.

/// The todos whose text contains the query, ignoring case (Unicode-aware).
public func selectFilteredTodos(items: [TodoItem], query: String) -> [TodoItem] {
    if query.isEmpty {
        return items
    }
    return items.filter { $0.matches(query) }
}

/// How many todos are not done yet.
public func selectPendingCount(items: [TodoItem]) -> Int {
    items.reduce(0) { $0 + ($1.isDone ? 0 : 1) }
}

/// How many todos are done.
public func selectDoneCount(items: [TodoItem]) -> Int {
    items.count - selectPendingCount(items: items)
}

@MainActor
public func selectFilteredTodos(state: TodoState) -> [TodoItem] {
    selectFilteredTodos(items: state.items, query: state.query)
}

@MainActor
public func selectPendingCount(state: TodoState) -> Int {
    selectPendingCount(items: state.items)
}

@MainActor
public func selectDoneCount(state: TodoState) -> Int {
    selectDoneCount(items: state.items)
}
