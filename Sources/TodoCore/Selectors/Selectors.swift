/// Selectors: pure functions from todos, or the state, to what is shown.
/// Storage's SQL must select exactly what they select (property tests hold
/// them together).

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

/// The rows of a loaded window that the state's filter and query select: the
/// window loaded for them, or, while a narrower query or another filter is
/// still loading, the part of the old window that already fits.
@MainActor
public func selectWindowRows(state: TodoState) -> [TodoWindow.Row] {
    selectWindowRows(window: state.window, filter: state.filter, query: state.query)
}

public func selectWindowRows(window: TodoWindow, filter: TodoRequest.Status, query: String) -> [TodoWindow.Row] {
    window.rows.filter { filter.includes($0.item) && $0.item.matches(query) }
}
