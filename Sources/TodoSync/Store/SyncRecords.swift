import Foundation
import TodoCore

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

    /// This todo holding `fields`, changed at `date` if they differ; a todo
    /// marked done here takes `completedAt` (when the server says) as its completion time.
    public func applying(_ fields: SyncFields, at date: Date, completedAt: Date? = nil) -> TodoItem {
        var item = editing(text: fields.text, at: date).marking(done: fields.isDone, at: date)
        if item.isDone, !isDone, let completedAt { item.completedAt = completedAt.roundedToMilliseconds }
        return item
    }
}

/// When each synced field was last edited, on the machine where the edit was made.
///
/// Sync writes these into the server's item beside the fields, so a conflict
/// is settled by when each side's edit was made, not by when it reached the server.
public struct FieldTimes: Sendable, Hashable {
    public var text: Date?
    public var done: Date?

    public init(text: Date? = nil, done: Date? = nil) {
        self.text = text?.roundedToMilliseconds
        self.done = done?.roundedToMilliseconds
    }

    /// The later of the two, if any.
    public var latest: Date? {
        switch (text, done) {
        case let (text?, done?): max(text, done)
        case let (text, done): text ?? done
        }
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
    /// The edit times the server's item carried: a later change that leaves
    /// them as they were left no trace of when it was made.
    public var editedAt: FieldTimes

    public init(todoId: UUID, remoteId: String, fields: SyncFields, remoteVersion: Int? = nil, editedAt: FieldTimes = FieldTimes()) {
        self.todoId = todoId
        self.remoteId = remoteId
        self.fields = fields
        self.remoteVersion = remoteVersion
        self.editedAt = editedAt
    }
}

/// A todo pulled from the server that is not here: its base, and the dates
/// the server's item carried (the time it was first seen where it had none).
public struct SyncPull: Sendable, Hashable {
    public var base: SyncBase
    public var createdAt: Date
    public var updatedAt: Date
    public var completedAt: Date?

    public init(base: SyncBase, createdAt: Date, updatedAt: Date, completedAt: Date?) {
        self.base = base
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
    }

    /// The new todo this pull stores.
    public var item: TodoItem {
        TodoItem(
            id: base.todoId, text: base.fields.text, isDone: base.fields.isDone,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: base.fields.isDone ? completedAt ?? updatedAt : nil
        )
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
    /// The step created the todo on a server that may persist it late: it
    /// stays unconfirmed until a list shows it.
    public var awaitsListing: Bool

    public init(
        todoId: UUID, expectedRev: Int64?, todo: TodoChange = .keep, base: BaseChange = .keep,
        conflicts: [SyncConflict] = [], awaitsListing: Bool = false
    ) {
        self.todoId = todoId
        self.expectedRev = expectedRev
        self.todo = todo
        self.base = base
        self.conflicts = conflicts
        self.awaitsListing = awaitsListing
    }
}
