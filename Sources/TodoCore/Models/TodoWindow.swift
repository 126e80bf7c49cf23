import Foundation

/// Where a todo sits in the list, newest first: its creation time, then the
/// order storage received it in, for todos created in the same millisecond (a
/// sync stores every todo it pulls at one time).
public struct TodoPosition: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970, as `TodoItem.createdAt`.
    public var createdAt: Int64
    /// Storage's insertion order, breaking ties in `createdAt`.
    public var sequence: Int64

    public init(createdAt: Int64, sequence: Int64) {
        self.createdAt = createdAt
        self.sequence = sequence
    }

    /// Whether `lhs` comes before `rhs` in the list: the newer one first.
    public static func < (lhs: TodoPosition, rhs: TodoPosition) -> Bool {
        (lhs.createdAt, lhs.sequence) > (rhs.createdAt, rhs.sequence)
    }
}

/// A run of consecutive todos from the list a request selects: what a view of
/// a long list loads instead of all of it.
public struct TodoWindow: Sendable, Equatable {
    /// One todo as a list shows it.
    public struct Row: Sendable, Equatable, Identifiable {
        public var item: TodoItem
        public var position: TodoPosition
        /// How many characters of the ID no other todo shares (at least 4).
        public var shortIDLength: Int

        public init(item: TodoItem, position: TodoPosition, shortIDLength: Int) {
            self.item = item
            self.position = position
            self.shortIDLength = shortIDLength
        }

        public var id: UUID { item.id }

        /// The shortest unique prefix of the ID, as `todo list` shows it.
        public var shortID: String { String(item.idString.prefix(shortIDLength)) }
    }

    /// Where in the list a window is taken from.
    public enum Anchor: Sendable, Equatable {
        /// The first todos.
        case top
        /// The last todos.
        case bottom
        /// The todos around a place, whether or not a todo is still there.
        case position(TodoPosition)
    }

    /// In list order.
    public var rows: [Row]
    /// More todos come before the first row.
    public var hasNewer: Bool
    /// More todos come after the last row.
    public var hasOlder: Bool

    public init(rows: [Row], hasNewer: Bool, hasOlder: Bool) {
        self.rows = rows
        self.hasNewer = hasNewer
        self.hasOlder = hasOlder
    }

    public static let empty = TodoWindow(rows: [], hasNewer: false, hasOlder: false)

    /// Builds the window `fetchWindow` answers from the rows on each side of
    /// its anchor, each fetched nearest first with one row more than asked
    /// for, so that the extra row tells whether more exist.
    public static func assembled(newer: [Row], older: [Row], newerLimit: Int, olderLimit: Int) -> TodoWindow {
        TodoWindow(
            rows: newer.prefix(newerLimit).reversed() + older.prefix(olderLimit),
            hasNewer: newer.count > newerLimit,
            hasOlder: older.count > olderLimit
        )
    }
}

/// How many todos are pending and done, whatever the filter and query.
public struct TodoCounts: Sendable, Hashable {
    public var pending: Int
    public var done: Int

    public init(pending: Int, done: Int) {
        self.pending = pending
        self.done = done
    }
}

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
