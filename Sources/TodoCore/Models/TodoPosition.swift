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
