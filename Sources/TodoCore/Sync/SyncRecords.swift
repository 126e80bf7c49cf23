import Foundation

/// The fields a sync carries between a todo and its copy on a server.
public struct SyncFields: Sendable, Hashable {
    public var text: String
    public var isDone: Bool

    public init(text: String, isDone: Bool) {
        self.text = text
        self.isDone = isDone
    }
}

extension TodoItem {
    public var syncFields: SyncFields { SyncFields(text: text, isDone: isDone) }

    /// This todo holding `fields`, changed at `date` if they differ.
    public func applying(_ fields: SyncFields, at date: Date) -> TodoItem {
        editing(text: fields.text, at: date).marking(done: fields.isDone, at: date)
    }
}

/// What both sides held for one todo at the last successful sync.
public struct SyncBase: Sendable, Hashable {
    public var todoId: UUID
    /// The server's id, as text.
    public var remoteId: String
    public var fields: SyncFields
    /// The server's version of the todo, if the server has versions.
    public var remoteVersion: Int?

    public init(todoId: UUID, remoteId: String, fields: SyncFields, remoteVersion: Int? = nil) {
        self.todoId = todoId
        self.remoteId = remoteId
        self.fields = fields
        self.remoteVersion = remoteVersion
    }
}

/// A todo as the sync finds it locally: its base, its current value (nil if
/// deleted here) and its place in the queue of local changes (nil if none).
public struct SyncRow: Sendable, Hashable {
    public var todoId: UUID
    public var base: SyncBase?
    public var local: TodoItem?
    public var pendingRev: Int64?

    public init(todoId: UUID, base: SyncBase?, local: TodoItem?, pendingRev: Int64?) {
        self.todoId = todoId
        self.base = base
        self.local = local
        self.pendingRev = pendingRev
    }
}

/// One conflict a sync settled: the same field changed on both sides.
public struct SyncConflict: Sendable, Hashable {
    public enum Side: String, Sendable, Hashable { case local, remote }

    public var todoId: UUID
    public var field: String
    public var localValue: String
    public var remoteValue: String
    public var winner: Side
    public var at: Date

    public init(todoId: UUID, field: String, localValue: String, remoteValue: String, winner: Side, at: Date) {
        self.todoId = todoId
        self.field = field
        self.localValue = localValue
        self.remoteValue = remoteValue
        self.winner = winner
        self.at = at
    }
}

/// The local half of one sync step, written in one transaction with its bookkeeping.
///
/// It is applied only if the todo's queued change is still `expectedRev` (what
/// the sync read): a todo edited while the sync ran keeps its edit and stays queued.
public struct SyncWrite: Sendable, Hashable {
    public enum TodoChange: Sendable, Hashable { case keep, save(TodoItem), delete }
    public enum BaseChange: Sendable, Hashable { case keep, set(SyncBase), remove }

    public var todoId: UUID
    public var expectedRev: Int64?
    public var todo: TodoChange
    public var base: BaseChange
    public var conflicts: [SyncConflict]

    public init(todoId: UUID, expectedRev: Int64?, todo: TodoChange = .keep, base: BaseChange = .keep, conflicts: [SyncConflict] = []) {
        self.todoId = todoId
        self.expectedRev = expectedRev
        self.todo = todo
        self.base = base
        self.conflicts = conflicts
    }
}
