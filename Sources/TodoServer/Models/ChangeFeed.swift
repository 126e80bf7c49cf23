/// What changed after a cursor.
public struct ChangeFeed: Sendable, Equatable {
    /// A JSON array of the todos created or changed, oldest change first.
    public let itemsJSON: String
    /// A JSON array of tombstones: `{"id", "version", "updatedAt", "deleted": true}`.
    public let deletedJSON: String
    /// Where to continue from.
    public let cursor: Int
    /// True when a `_limit` cut the feed short: ask again from `cursor`.
    public let hasMore: Bool
}
