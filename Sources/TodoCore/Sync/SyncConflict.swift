import Foundation

/// One conflict a sync settled: the same field changed on both sides.
public struct SyncConflict: Sendable, Hashable {
    public enum Side: String, Sendable, Hashable { case local, remote }

    public var todoId: UUID
    public var field: String
    public var localValue: String
    public var remoteValue: String
    public var winner: Side
    public var at: Date
    /// When each side's edit was made, as far as the sync could tell.
    public var localEditedAt: Date?
    public var remoteEditedAt: Date?

    public init(
        todoId: UUID, field: String, localValue: String, remoteValue: String, winner: Side, at: Date,
        localEditedAt: Date? = nil, remoteEditedAt: Date? = nil
    ) {
        self.todoId = todoId
        self.field = field
        self.localValue = localValue
        self.remoteValue = remoteValue
        self.winner = winner
        self.at = at
        self.localEditedAt = localEditedAt?.roundedToMilliseconds
        self.remoteEditedAt = remoteEditedAt?.roundedToMilliseconds
    }
}
