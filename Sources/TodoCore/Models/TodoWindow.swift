import Foundation

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
    /// False when a `.quick` load stopped searching before it found all the
    /// rows it was asked for: the rows are the nearest matches, in order, but
    /// more may follow them. A `.complete` load finds the rest.
    public var isComplete: Bool

    public init(rows: [Row], hasNewer: Bool, hasOlder: Bool, isComplete: Bool = true) {
        self.rows = rows
        self.hasNewer = hasNewer
        self.hasOlder = hasOlder
        self.isComplete = isComplete
    }

    /// How hard a load of a window searches.
    public enum Effort: Sendable, Equatable {
        /// Stops where finding the rows would mean reading far through the
        /// list (a rare one- or two-letter query in a million todos): the
        /// window may come back incomplete. What a keystroke asks for.
        case quick
        /// Finds every row asked for, however far it must read.
        case complete
    }

    public static let empty = TodoWindow(rows: [], hasNewer: false, hasOlder: false)

    /// Builds the window `fetchWindow` answers from the rows on each side of
    /// its anchor, each fetched nearest first with one row more than asked
    /// for, so that the extra row tells whether more exist.
    /// `isComplete` false: a side stopped searching early.
    public static func assembled(
        newer: [Row], older: [Row], newerLimit: Int, olderLimit: Int, isComplete: Bool = true
    ) -> TodoWindow {
        TodoWindow(
            rows: newer.prefix(newerLimit).reversed() + older.prefix(olderLimit),
            hasNewer: newer.count > newerLimit,
            hasOlder: older.count > olderLimit,
            isComplete: isComplete
        )
    }
}
