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
        case update(id: String, version: Int?, fields: SyncFields, changed: Set<SyncField>)
        case delete(id: String, version: Int?)
    }

    public enum Local: Sendable, Hashable {
        case keep, save(SyncFields), delete
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
    /// The server item's own dates, for the todo stored here from it.
    public var remoteCreatedAt: Date?
    public var remoteUpdatedAt: Date?
    public var remoteCompletedAt: Date?
}

extension SyncStep {
    /// The base to store when this step only brings a server todo here: it
    /// sends nothing, saves the server's fields as they are, records them as
    /// the base, settles no conflict and waits for no change of ours.
    /// Storing it as a new todo is right when the todo is not here.
    public func pull(seenAt now: Date) -> SyncPull? {
        guard case .none = remote, case let .save(fields) = local, base == fields,
              expectedRev == nil, conflicts.isEmpty, let remoteId else { return nil }
        let base = SyncBase(todoId: todoId, remoteId: remoteId, fields: fields, remoteVersion: remoteVersion, editedAt: editedAt)
        return SyncPull(base: base, createdAt: remoteCreatedAt ?? now, updatedAt: changedAt(seenAt: now), completedAt: remoteCompletedAt)
    }

    /// When the todo this step saves here was last changed: its latest edit
    /// time, else the server's `updatedAt`, else when this sync saw it.
    public func changedAt(seenAt now: Date) -> Date {
        editedAt.latest ?? remoteUpdatedAt ?? now
    }
}

/// A field sync carries, named as conflicts show it.
public enum SyncField: String, Sendable, Hashable, CaseIterable, Comparable {
    case text, done, due, priority, tags, note
    case recurrence = "repeat"

    public static func < (lhs: SyncField, rhs: SyncField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The fields people plan with, beyond the text and the done mark.
    public static let planning: [SyncField] = [.due, .priority, .tags, .note, .recurrence]
}

extension SyncFields {
    /// The text, the done mark, and the planning fields that hold a value.
    public var fieldsInUse: Set<SyncField> {
        var fields: Set<SyncField> = [.text, .done]
        if due != nil { fields.insert(.due) }
        if priority != nil { fields.insert(.priority) }
        if !tags.isEmpty { fields.insert(.tags) }
        if note != nil { fields.insert(.note) }
        if recurrence != nil { fields.insert(.recurrence) }
        return fields
    }

    /// A planning field's value as JSON: text, an array of tags, or null.
    func json(_ field: SyncField) -> JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return switch field {
        case .text: .string(text)
        case .done: .bool(isDone)
        case .due: optional(due?.text)
        case .priority: optional(priority?.rawValue)
        case .tags: .array(tags.map(JSONValue.string))
        case .note: optional(note)
        case .recurrence: optional(recurrence?.description)
        }
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
