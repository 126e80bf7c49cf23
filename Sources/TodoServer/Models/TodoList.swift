/// The todos one `GET /todos` selected, as a JSON array.
public struct TodoList: Sendable, Equatable {
    /// A JSON array of the page asked for, or of every match.
    public let json: String
    /// How many todos match the filters, all pages together.
    public let total: Int
    /// The change feed's position when this list was read: pass it as
    /// `_since` to get what changed afterwards.
    public let cursor: Int
}
