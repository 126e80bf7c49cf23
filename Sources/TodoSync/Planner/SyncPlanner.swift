import Foundation
import TodoCore

/// The three-way reconciliation: a pure function from what each side holds
/// now and held at the last sync to the steps that make them equal.
///
/// A side changed a todo if it differs from the base. Changed on one side:
/// copied across. Changed on both: merged field by field, a field changed on
/// both to different values being a conflict settled by the preference.
/// Deleted on one side and edited on the other: the edit survives.
public enum SyncPlanner {
    public static func plan(_ entries: [SyncEntry], prefer: ConflictPreference = .newest, now: Date) -> SyncPlan {
        SyncPlan(steps: entries.compactMap { step(for: $0, prefer: prefer, now: now) })
    }

    static func step(for entry: SyncEntry, prefer: ConflictPreference, now: Date) -> SyncStep? {
        let base = entry.base?.fields
        let local = entry.local?.syncFields
        var step = SyncStep(
            todoId: entry.todoId, expectedRev: entry.pendingRev, remote: .none, local: .keep,
            base: nil, remoteId: entry.remote?.id, remoteVersion: entry.remote?.version, conflicts: []
        )
        if let remote = entry.remote {
            step.editedAt = remote.editedAt
            step.remoteCreatedAt = remote.createdAt
            step.remoteUpdatedAt = remote.updatedAt
            step.remoteCompletedAt = remote.completedAt
        }
        switch (local, entry.remote) {
        case (nil, nil):
            // Gone on both sides: forget it, if there is anything to forget.
            guard entry.base != nil || entry.pendingRev != nil else { return nil }
        case let (local?, nil):
            if let base, local == base {
                step.local = .delete
            } else {
                step.remote = .create(local)
                step.base = local
                let edited = entry.local?.updatedAt
                for field in local.fieldsInUse { step.editedAt[field] = edited }
            }
        case let (nil, remote?):
            if let base, remote.fields == base, entry.base?.remoteId == remote.id {
                step.remote = .delete(id: remote.id, version: remote.version)
            } else {
                step.local = .save(remote.fields)
                step.base = remote.fields
            }
        case let (local?, remote?):
            let (merged, conflicts) = merge(entry, local: local, remote: remote, prefer: prefer, now: now)
            let changed = Set(SyncField.allCases.filter { !merged.holdsSame($0, as: remote.fields) })
            if !changed.isEmpty {
                step.remote = .update(id: remote.id, version: remote.version, fields: merged, changed: changed)
                // What this step sends is this machine's edit.
                for field in changed { step.editedAt[field] = entry.local?.updatedAt }
            }
            if merged != local { step.local = .save(merged) }
            step.base = merged
            step.conflicts = conflicts
            let settled = entry.base == SyncBase(
                todoId: entry.todoId, remoteId: remote.id, fields: merged, remoteVersion: remote.version, editedAt: remote.editedAt
            )
            if settled, changed.isEmpty, merged == local, entry.pendingRev == nil { return nil }
        }
        return step
    }

    /// Field by field: a side that kept the base gives way to the one that
    /// changed it; both changed to different values is a conflict.
    static func merge(
        _ entry: SyncEntry, local: SyncFields, remote: RemoteTodo, prefer: ConflictPreference, now: Date
    ) -> (SyncFields, [SyncConflict]) {
        let base = entry.base?.fields
        var merged = local
        var conflicts: [SyncConflict] = []
        for field in SyncField.allCases where !local.holdsSame(field, as: remote.fields) {
            if field == .tags {
                // A set: what either side added is in, what either removed is out.
                merged.tags = mergedTags(base: base?.tags, local: local.tags, remote: remote.fields.tags)
                continue
            }
            if let base, local.holdsSame(field, as: base) {
                merged.take(field, from: remote.fields)
            } else if let base, remote.fields.holdsSame(field, as: base) {
                continue
            } else {
                let localTime = entry.local?.updatedAt
                let remoteTime = remoteEditTime(of: field, entry: entry, remote: remote, now: now)
                let localWins = switch prefer {
                case .local: true
                case .remote: false
                case .newest:
                    if base == nil, let asCreated = sideAsCreated(field, entry: entry, remote: remote) {
                        // Two copies of one todo, created on both sides (the next
                        // occurrence of a repeating todo): an edit beats a value
                        // as it was created, however late the creation.
                        asCreated == .remote
                    } else {
                        localTime.map { $0 > remoteTime } ?? false
                    }
                }
                conflicts.append(SyncConflict(
                    todoId: entry.todoId, field: field.rawValue,
                    localValue: local[field], remoteValue: remote.fields[field],
                    winner: localWins ? .local : .remote, at: now,
                    localEditedAt: localTime, remoteEditedAt: remoteTime
                ))
                if !localWins { merged.take(field, from: remote.fields) }
            }
        }
        return (merged, conflicts)
    }

    /// Of two copies of a todo with no base, the one side whose `field` is
    /// still as it was created (its edit time is its creation time) while the
    /// other's was edited since; nil when both or neither are.
    static func sideAsCreated(_ field: SyncField, entry: SyncEntry, remote: RemoteTodo) -> SyncConflict.Side? {
        guard let local = entry.local else { return nil }
        let localAsCreated = local.updatedAt == local.createdAt
        let remoteAsCreated = remote.createdAt != nil && remote.editedAt[field] == remote.createdAt
        guard localAsCreated != remoteAsCreated else { return nil }
        return localAsCreated ? .local : .remote
    }

    /// Tags merged as a set, three-way: kept where both sides kept them,
    /// added where either side added them; with no base, every tag of either side.
    static func mergedTags(base: [String]?, local: [String], remote: [String]) -> [String] {
        let local = Set(local), remote = Set(remote)
        guard let base = base.map(Set.init) else { return TodoTags.normalized(local.union(remote)) }
        let kept = local.intersection(remote)
        return TodoTags.normalized(kept.union(local.subtracting(base)).union(remote.subtracting(base)))
    }

    /// When the server's change of a field was made: the edit time a `todo`
    /// wrote beside it, unless it is the one the base recorded (then the
    /// change left no trace of its own), else now, when this sync first sees it.
    static func remoteEditTime(of field: SyncField, entry: SyncEntry, remote: RemoteTodo, now: Date) -> Date {
        guard let time = remote.editedAt[field], time != entry.base?.editedAt[field] else { return now }
        return time
    }
}

extension FieldTimes {
    public subscript(field: SyncField) -> Date? {
        get {
            switch field {
            case .text: text
            case .done: done
            case .due: due
            case .priority: priority
            case .tags: tags
            case .note: note
            case .recurrence: recurrence
            }
        }
        set {
            let value = newValue?.roundedToMilliseconds
            switch field {
            case .text: text = value
            case .done: done = value
            case .due: due = value
            case .priority: priority = value
            case .tags: tags = value
            case .note: note = value
            case .recurrence: recurrence = value
            }
        }
    }
}

extension SyncFields {
    /// A field's value as text, as conflicts show it ("" for none).
    public subscript(field: SyncField) -> String {
        switch field {
        case .text: text
        case .done: isDone ? "true" : "false"
        case .due: due?.text ?? ""
        case .priority: priority?.rawValue ?? ""
        case .tags: tags.joined(separator: " ")
        case .note: note ?? ""
        case .recurrence: recurrence?.description ?? ""
        }
    }

    /// Whether both hold the same value for `field`.
    func holdsSame(_ field: SyncField, as other: SyncFields) -> Bool {
        switch field {
        case .text: text == other.text
        case .done: isDone == other.isDone
        case .due: due == other.due
        case .priority: priority == other.priority
        case .tags: tags == other.tags
        case .note: note == other.note
        case .recurrence: recurrence == other.recurrence
        }
    }

    mutating func take(_ field: SyncField, from other: SyncFields) {
        switch field {
        case .text: text = other.text
        case .done: isDone = other.isDone
        case .due: due = other.due
        case .priority: priority = other.priority
        case .tags: tags = other.tags
        case .note: note = other.note
        case .recurrence: recurrence = other.recurrence
        }
    }
}
