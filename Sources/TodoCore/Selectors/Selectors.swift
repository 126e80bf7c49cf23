import Foundation

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

/// How many todos `todo list` and `todo list --done` list at `now`, and how
/// many pending ones wait (`TodoCounts`); what storage's `countTodos` counts.
public func selectCounts(items: [TodoItem], now: Date, timeZone: TimeZone) -> TodoCounts {
    let current = TodoRequest.Schedule.current(at: now, in: timeZone), waiting = TodoRequest.Schedule.waiting(at: now, in: timeZone)
    var counts = TodoCounts(pending: 0, done: 0)
    for item in items {
        if current.includes(item) {
            if item.isDone { counts.done += 1 } else { counts.pending += 1 }
        } else if !item.isDone, waiting.includes(item) {
            counts.waiting += 1
        }
    }
    return counts
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
