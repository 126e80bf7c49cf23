import Foundation
import TodoCore

/// The fields a sync carries between a todo and its copy on a server, each
/// merged on its own.
public struct SyncFields: Sendable, Hashable {
    public var text: String
    public var isDone: Bool
    public var due: TodoDue?
    public var priority: TodoPriority?
    /// Sorted and distinct, as `TodoItem.tags`.
    public var tags: [String]
    public var note: String?
    public var recurrence: TodoRepeat?

    public init(
        text: String, isDone: Bool, due: TodoDue? = nil, priority: TodoPriority? = nil, tags: [String] = [],
        note: String? = nil, recurrence: TodoRepeat? = nil
    ) {
        self.text = text
        self.isDone = isDone
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.recurrence = recurrence
    }
}

extension SyncFields {
    /// A new todo holding these fields.
    public func item(id: UUID, createdAt: Date) -> TodoItem {
        TodoItem(
            id: id, text: text, isDone: isDone, createdAt: createdAt,
            due: due, priority: priority, tags: tags, note: note, recurrence: recurrence
        )
    }
}

extension TodoItem {
    public var syncFields: SyncFields {
        SyncFields(text: text, isDone: isDone, due: due, priority: priority, tags: tags, note: note, recurrence: recurrence)
    }

    /// This todo holding `fields`, changed at `date` if they differ; a todo
    /// marked done here takes `completedAt` (when the server says) as its completion time.
    public func applying(_ fields: SyncFields, at date: Date, completedAt: Date? = nil) -> TodoItem {
        var item = editing(text: fields.text, at: date).marking(done: fields.isDone, at: date)
        if item.isDone, !isDone, let completedAt { item.completedAt = completedAt.roundedToMilliseconds }
        let planning = (fields.due, fields.priority, fields.tags, fields.note, fields.recurrence)
        if planning != (item.due, item.priority, item.tags, item.note, item.recurrence) {
            (item.due, item.priority, item.tags, item.note, item.recurrence) = planning
            item.updatedAt = date.roundedToMilliseconds
        }
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
    public var due: Date?
    public var priority: Date?
    public var tags: Date?
    public var note: Date?
    public var recurrence: Date?

    public init(
        text: Date? = nil, done: Date? = nil, due: Date? = nil, priority: Date? = nil, tags: Date? = nil,
        note: Date? = nil, recurrence: Date? = nil
    ) {
        self.text = text?.roundedToMilliseconds
        self.done = done?.roundedToMilliseconds
        self.due = due?.roundedToMilliseconds
        self.priority = priority?.roundedToMilliseconds
        self.tags = tags?.roundedToMilliseconds
        self.note = note?.roundedToMilliseconds
        self.recurrence = recurrence?.roundedToMilliseconds
    }

    /// The latest of them, if any.
    public var latest: Date? {
        [text, done, due, priority, tags, note, recurrence].lazy.compactMap { $0 }.max()
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
        let fields = base.fields
        return TodoItem(
            id: base.todoId, text: fields.text, isDone: fields.isDone,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: fields.isDone ? completedAt ?? updatedAt : nil,
            due: fields.due, priority: fields.priority, tags: fields.tags, note: fields.note, recurrence: fields.recurrence
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
