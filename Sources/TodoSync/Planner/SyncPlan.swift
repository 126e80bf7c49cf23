import Foundation
import TodoCore

/// One todo as the planner sees it: what both sides held at the last sync,
/// and what each holds now (nil: absent there).
public struct SyncEntry: Sendable, Hashable {
    public var todoId: UUID
    public var base: SyncBase?
    public var local: TodoItem?
    public var remote: RemoteTodo?
    /// The queued local change the sync read, checked again when writing.
    public var pendingRev: Int64?
    /// The base was left out because the write it records may be lost or
    /// overwritten (a CalDAV list cannot say which): merged without it, a set
    /// (tags, blockers) is settled by its newer edit, as every field is,
    /// never joined, which would bring back what either side removed.
    public var baseInDoubt = false
    /// The tags and blockers a write of ours sent whose answer never came,
    /// with the base's as they were then: the server may hold either
    /// (`SyncPlanner.setBase`).
    public var inFlight: InFlight?

    public struct InFlight: Sendable, Hashable {
        public var sent: SetsInFlight
        /// The base's sets when the write went out (nil: no base).
        public var base: SetsInFlight?

        public init(sent: SetsInFlight, base: SetsInFlight?) {
            self.sent = sent
            self.base = base
        }
    }

    public init(todoId: UUID, base: SyncBase?, local: TodoItem?, remote: RemoteTodo?, pendingRev: Int64?) {
        self.todoId = todoId
        self.base = base
        self.local = local
        self.remote = remote
        self.pendingRev = pendingRev
    }
}

/// Who wins when both sides changed the same field to different values.
public enum ConflictPreference: String, Sendable, Hashable, CaseIterable {
    /// The edit made later wins, by when it was made on its machine: the
    /// edit time a `todo` wrote into the server's item, or, for a change that
    /// left no such trace, the time this sync first saw it. A tie goes to the server.
    case newest
    case local
    case remote
}

/// What to do for one todo: a write to the server, then the local write and
/// the new base, together in one transaction.
public struct SyncStep: Sendable, Hashable {
    public enum Remote: Sendable, Hashable {
        case none
        case create(SyncFields)
        /// Send only the fields that differ from the server's.
        case update(id: String, version: Int?, fields: SyncFields, changed: Set<TodoField>)
        case delete(id: String, version: Int?)
    }

    public enum Local: Sendable, Hashable {
        /// `save` holds the todo as it is stored here: merged fields, their
        /// edit times and the dates both sides agree on.
        case keep, save(TodoItem), delete
    }

    public var todoId: UUID
    public var expectedRev: Int64?
    public var remote: Remote
    public var local: Local
    /// The new base (nil: forget it), tied to `remoteId` unless `remote` creates a new item.
    public var base: SyncFields?
    public var remoteId: String?
    public var remoteVersion: Int?
    public var conflicts: [SyncConflict]
    /// The edit times the server's item holds once this step is done: what
    /// it carried, with those of the fields this step sends.
    public var editedAt: FieldTimes = FieldTimes()
    /// The dates the server's item holds once this step is done.
    public var serverCreatedAt: Date?
    public var serverCompletedAt: Date?
    /// The update rewrites the server's `createdAt` and `completedAt` too:
    /// they differ from the ones both sides agree on.
    public var sendsDates = false
    /// The server's tags no tag of ours can be (`RemoteTodo.foreignTags`):
    /// an update that sends tags sends these beside ours, and the new base
    /// records them.
    public var keptTags: [String] = []
    /// The UID the server knows the item by, where not the todo's id (`RemoteTodo.uid`).
    public var remoteUID: String?
}

extension SyncStep {
    /// The pull to store when this step only brings a server todo here: it
    /// sends nothing, saves the server's fields as they are, records them as
    /// the base, settles no conflict and waits for no change of ours.
    /// Storing it as a new todo is right when the todo is not here.
    public var pull: SyncPull? {
        guard case .none = remote, case let .save(item) = local, base == item.syncFields,
              expectedRev == nil, conflicts.isEmpty, let remoteId else { return nil }
        return SyncPull(base: newBase(remoteId: remoteId, version: remoteVersion)!, item: item)
    }

    /// The todo as it is stored here once this step is done: what it saves, else `local`.
    public func stored(over local: TodoItem?) -> TodoItem? {
        if case let .save(item) = self.local { item } else { local }
    }

    /// The base this step records once the server answered with `remoteId`
    /// and `version`; nil if it forgets the base.
    public func newBase(remoteId: String?, version: Int?) -> SyncBase? {
        guard let base, let remoteId else { return nil }
        return SyncBase(
            todoId: todoId, remoteId: remoteId, fields: base, remoteVersion: version, editedAt: editedAt,
            createdAt: serverCreatedAt, completedAt: serverCompletedAt, foreignTags: keptTags, remoteUID: remoteUID
        )
    }
}

/// Every step of one sync, pure data: printed by --dry-run, run by `SyncService`.
public struct SyncPlan: Sendable, Hashable {
    public var steps: [SyncStep]

    public var conflicts: [SyncConflict] { steps.flatMap(\.conflicts) }

    /// How many todos this plan deletes here.
    public var localDeletions: Int {
        // Counted in place: filtering would copy every step.
        steps.reduce(0) { count, step in step.local == .delete ? count + 1 : count }
    }
}
