/// A todo as a command shows it: the item and how many characters of its ID
/// are unique (its short ID, as shown and accepted).
public struct ListedTodo: Sendable, Equatable {
    public var item: TodoItem
    public var idPrefixLength: Int

    public init(item: TodoItem, idPrefixLength: Int) {
        self.item = item
        self.idPrefixLength = idPrefixLength
    }

    /// The shortest unique prefix of the ID, as shown and accepted.
    public var shortID: String {
        String(item.idString.prefix(idPrefixLength))
    }
}
