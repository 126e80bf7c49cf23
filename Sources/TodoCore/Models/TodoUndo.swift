/// A change the user made that can be taken back, with what taking it back needs.
public enum TodoUndo: Sendable, Equatable {
    /// A todo was added: undoing deletes it.
    case add(TodoItem)
    /// Todos were edited or marked done or not done: undoing writes these,
    /// their values before, back.
    case change(before: [TodoItem])
    /// Todos were deleted: undoing stores them again, as they were.
    case delete([TodoItem])

    /// What was done, in a few words: "add of “buy milk”".
    public var summary: String {
        switch self {
        case .add(let item): "add of “\(item.text)”"
        case .change(let before) where before.count == 1: "change to “\(before[0].text)”"
        case .change(let before): "change to \(before.count) todos"
        case .delete(let items) where items.count == 1: "delete of “\(items[0].text)”"
        case .delete(let items): "delete of \(items.count) todos"
        }
    }
}
