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
    /// The fields the plan holds (`TodoField.planned`, `PlanHolding`).
    public var planBox: PlanBox?

    public init(
        text: String, isDone: Bool, due: TodoDue? = nil, priority: TodoPriority? = nil, tags: [String] = [],
        note: String? = nil, recurrence: TodoRepeat? = nil, plan: TodoPlan = TodoPlan()
    ) {
        self.text = text
        self.isDone = isDone
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.recurrence = recurrence
        self.planBox = PlanBox.holding(plan)
    }
}

extension SyncFields: TodoFieldValues {}

extension SyncFields {
    /// A new todo holding these fields.
    public func item(id: UUID, createdAt: Date) -> TodoItem {
        var item = TodoItem(
            id: id, text: text, isDone: isDone, createdAt: createdAt,
            due: due, priority: priority, tags: tags, note: note, recurrence: recurrence
        )
        item.planBox = planBox?.roundedToMilliseconds
        return item
    }
}

extension TodoItem {
    /// Its fields, the plan's box shared (it holds the same plan), not built again.
    public var syncFields: SyncFields {
        var fields = SyncFields(
            text: text, isDone: isDone, due: due, priority: priority, tags: tags, note: note, recurrence: recurrence
        )
        fields.planBox = planBox
        return fields
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
    /// The dates the server's item carried (nil: none, or not recorded).
    public var createdAt: Date?
    public var completedAt: Date?
    /// The tags the server's item held that no tag of ours can be
    /// (`RemoteTodo.foreignTags`): sent back with ours.
    public var foreignTags: [String]
    /// The UID a CalDAV server knows the item by, where it is not the
    /// todo's id in lower case (`RemoteTodo.uid`): links name it so.
    public var remoteUID: String?

    public init(
        todoId: UUID, remoteId: String, fields: SyncFields, remoteVersion: Int? = nil, editedAt: FieldTimes = FieldTimes(),
        createdAt: Date? = nil, completedAt: Date? = nil, foreignTags: [String] = [], remoteUID: String? = nil
    ) {
        self.foreignTags = foreignTags
        self.remoteUID = remoteUID
        self.todoId = todoId
        self.remoteId = remoteId
        self.fields = fields
        self.remoteVersion = remoteVersion
        self.editedAt = editedAt
        self.createdAt = createdAt?.roundedToMilliseconds
        self.completedAt = completedAt?.roundedToMilliseconds
    }
}

extension SyncBase {
    /// Whether a column past the first 19 holds something: one of the
    /// plan's fields (`TodoPlan`) is set or has an edit time, or the server
    /// holds tags ours cannot be, or knows the item by a UID of its own.
    var usesLaterColumns: Bool { fields.planBox != nil || editedAt.hasPlanTimes || !foreignTags.isEmpty || remoteUID != nil }
}

/// A todo pulled from the server that is not here: its base, and the todo
/// stored from it.
public struct SyncPull: Sendable, Hashable {
    public var base: SyncBase
    public var item: TodoItem

    public init(base: SyncBase, item: TodoItem) {
        self.base = base
        self.item = item
    }

    /// The pull of `base` as a todo carrying no dates: created, changed and
    /// (if done) completed at `time`.
    public init(base: SyncBase, at time: Date) {
        var item = base.fields.item(id: base.todoId, createdAt: time)
        item.completedAt = base.fields.isDone ? time : nil
        item.editedAt = base.editedAt
        self.init(base: base, item: item)
    }
}

/// A todo as the sync finds it locally: its base, its current value (nil if
/// deleted here) and its place in the queue of local changes (nil if none).
public struct SyncRow: Sendable, Hashable {
    public var todoId: UUID
    public var base: SyncBase?
    public var local: TodoItem?
    public var pendingRev: Int64?
    /// The sets a write sent whose answer was never recorded.
    public var setsInFlight: SetsInFlight?

    public init(todoId: UUID, base: SyncBase?, local: TodoItem?, pendingRev: Int64?) {
        self.todoId = todoId
        self.base = base
        self.local = local
        self.pendingRev = pendingRev
    }
}

/// The tags and blockers a sync sent for a todo, kept until the answer to
/// that write is recorded (`syncSetsInFlight`): the server may hold them
/// though the base does not say so.
public struct SetsInFlight: Sendable, Hashable {
    public var tags: [String]
    public var blockedBy: [UUID]

    public init(tags: [String], blockedBy: [UUID]) {
        self.tags = tags
        self.blockedBy = blockedBy
    }

    /// What a step sends of the sets, if it sends any: a create holding
    /// some, or an update that changes one.
    init?(_ step: SyncStep) {
        switch step.remote {
        case let .create(fields) where !fields.tags.isEmpty || !fields.blockedBy.isEmpty:
            self.init(tags: fields.tags, blockedBy: fields.blockedBy)
        case let .update(_, _, fields, changed) where changed.contains(.tags) || changed.contains(.blockedBy):
            self.init(tags: fields.tags, blockedBy: fields.blockedBy)
        default:
            return nil
        }
    }
}

/// When a write was sent and answered, counted in answers: it was sent after
/// `sentAfter` answers had come, and its own answer was number `answered`.
/// Writes in flight together may be answered in another order than the
/// server wrote them in; one answered before another was sent was written
/// before it (`SyncService.lostCreates`).
public struct AnswerOrder: Sendable, Hashable {
    public var sentAfter: Int64
    public var answered: Int64

    public init(sentAfter: Int64, answered: Int64) {
        self.sentAfter = sentAfter
        self.answered = answered
    }

    /// Whether the server may have written this write after `other`: unless
    /// this one was answered before `other` was sent, it may.
    public func mayHaveBeenWrittenAfter(_ other: AnswerOrder) -> Bool {
        answered >= other.sentAfter
    }
}

/// A create no list has shown yet, and when it was sent and answered.
public struct UnconfirmedCreate: Sendable, Hashable {
    public var todoId: UUID
    public var order: AnswerOrder

    public init(todoId: UUID, order: AnswerOrder) {
        self.todoId = todoId
        self.order = order
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
    /// The step changed or deleted the todo on a CalDAV list, which may lose
    /// it: it stays unconfirmed until a report names it.
    public var awaitsReport = false
    /// When its write was sent and answered, for one that stays unconfirmed;
    /// nil: after every answer recorded so far.
    public var answerOrder: AnswerOrder?

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
