/// What a `TodoRequest` selects, as a pure function: storage's SQL must give
/// exactly this (a property test holds them together).

extension TodoRequest {
    /// Whether `item` passes every filter of the request (not its sort or limit).
    public func includes(_ item: TodoItem) -> Bool {
        status.includes(item)
            && (priority?.includes(item.priority) ?? true)
            && (due?.includes(item.due) ?? true)
            && (project?.includes(item.project) ?? true)
            && schedule.includes(item)
            && tags.allSatisfy { item.tags.contains($0) }
            && !excludedTags.contains { item.tags.contains($0) }
            && item.matches(query)
    }
}

/// The todos `request` selects from `items`, which are in list order (newest
/// first): filtered, sorted (a stable sort, so ties stay newest first) and
/// cut to the limit.
public func selectRequestedTodos(items: [TodoItem], request: TodoRequest) -> [TodoItem] {
    var selected = items.filter(request.includes)
    switch request.sort {
    case .created:
        break
    case .due:
        // Swift's sort is not stable: the index breaks ties in list order.
        selected = selected.enumerated().sorted { lhs, rhs in
            switch (lhs.element.due?.text, rhs.element.due?.text) {
            case let (left?, right?) where left != right: left < right
            case (.some, nil): true
            case (nil, .some): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    case .priority:
        selected = selected.enumerated().sorted { lhs, rhs in
            switch (lhs.element.priority?.rank, rhs.element.priority?.rank) {
            case let (left?, right?) where left != right: left < right
            case (.some, nil): true
            case (nil, .some): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
    return Array(selected.prefix(request.limit ?? .max))
}
