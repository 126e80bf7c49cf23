import Foundation
import TodoCore

/// The three-way reconciliation: a pure function from what each side holds
/// now and held at the last sync to the steps that make them equal.
///
/// A side changed a field if it differs from the base. Changed on one side:
/// copied across. Changed on both to different values, or held differently
/// by two copies with no base (the next occurrence of a repeating todo,
/// completed on two machines): a conflict, settled by the preference, by
/// default for the later edit, an edit always beating a value nobody edited.
/// Deleted on one side and edited on the other: the edit survives. A merge
/// that breaks a rule tying fields together (a repeat needs a due date)
/// takes those fields together from one side. Both sides end with the same
/// values, edit times and dates.
public enum SyncPlanner {
    public static func plan(_ entries: [SyncEntry], prefer: ConflictPreference = .newest, now: Date) -> SyncPlan {
        SyncPlan(steps: entries.compactMap { step(for: $0, prefer: prefer, now: now) })
    }

    static func step(for entry: SyncEntry, prefer: ConflictPreference, now: Date) -> SyncStep? {
        var step = SyncStep(
            todoId: entry.todoId, expectedRev: entry.pendingRev, remote: .none, local: .keep,
            base: nil, remoteId: entry.remote?.id, remoteVersion: entry.remote?.version, conflicts: []
        )
        step.keptTags = entry.remote?.foreignTags ?? []
        step.remoteUID = entry.remote?.uid
        switch (entry.local, entry.remote) {
        case (nil, nil):
            // Gone on both sides: forget it, if there is anything to forget.
            guard entry.base != nil || entry.pendingRev != nil else { return nil }
        case let (local?, nil):
            if let base = entry.base, local.syncFields == base.fields {
                step.local = .delete
            } else {
                // New here, or edited here and deleted there: the edit survives.
                step.remote = .create(local.syncFields)
                step.base = local.syncFields
                step.editedAt = localTimes(local, base: entry.base?.fields)
                step.serverCreatedAt = local.createdAt
                step.serverCompletedAt = local.completedAt
            }
        case let (nil, remote?):
            // Deleted here, and unchanged there since the base: not in value,
            // nor by an edit made since that set a value again (an edit beats a delete).
            if let base = entry.base, remote.fields == base.fields, base.remoteId == remote.id, !remote.editedAt.isLater(than: base.editedAt) {
                step.remote = .delete(id: remote.id, version: remote.version)
            } else {
                let item = remote.item(todoId: entry.todoId, times: remote.editedAt, seenAt: now)
                step.local = .save(item)
                step.base = remote.fields
                step.editedAt = remote.editedAt
                step.serverCreatedAt = remote.createdAt
                step.serverCompletedAt = remote.completedAt
                // Another client's item may break a rule (checked first: this runs for every todo pulled).
                let invalid = remote.fields.recurrence != nil && remote.fields.due == nil
                    ? changedFields(item, remote: remote, keepsTimes: false) : []
                if !invalid.isEmpty {
                    // Another client's item that breaks a rule: mended on both sides.
                    step.remote = .update(id: remote.id, version: remote.version, fields: item.syncFields, changed: invalid)
                    step.base = item.syncFields
                }
            }
        case let (local?, remote?):
            return merge(entry, local: local, remote: remote, prefer: prefer, now: now, into: step)
        }
        return step
    }

    /// The step for a todo held on both sides: merged field by field, then
    /// sent where the server differs and saved where this side differs.
    static func merge(
        _ entry: SyncEntry, local: TodoItem, remote: RemoteTodo, prefer: ConflictPreference, now: Date, into step: SyncStep
    ) -> SyncStep? {
        var step = step
        let base = entry.base?.fields
        var ours = local
        ours.editedAt = localTimes(local, base: base)
        let theirs = remote.item(todoId: entry.todoId, times: remoteTimes(entry, remote: remote, now: now), seenAt: now)
        let (ourFields, theirFields) = (ours.syncFields, theirs.syncFields)
        // The server keeps what `todo` writes into its items (our marker, edit
        // times): its edit times can be trusted, a missing one included.
        let keepsTimes = remote.clientId != nil || remote.editedAt.latest != nil || remote.createdAt != nil
        var merged = ours
        var conflicts: [SyncConflict] = []
        for field in TodoField.allCases {
            let (ourTime, theirTime) = (ours.editedAt[field], theirs.editedAt[field])
            let baseTime = entry.base?.editedAt[field]
            // The server holds an edit older than the one it held at the last
            // sync: it lost a write (a restart), and what we hold is newer.
            let regressed = base != nil && keepsTimes && (remote.editedAt[field] ?? .distantPast) < (baseTime ?? .distantPast)
            // A side changed a field if its value, or the edit that gave it
            // (set again to the same value), is not the one of the last sync.
            let localChanged = base.map { !ourFields.holdsSame(field, as: $0) } ?? true
                || local.editedAt[field].map { $0 != baseTime } ?? false || regressed
            let remoteChanged = base.map { !theirFields.holdsSame(field, as: $0) } ?? true || remote.editedAt[field] != baseTime
            if ourFields.holdsSame(field, as: theirFields) {
                // No conflict: the later of the edit times written down (an
                // untraced change's "now" only settles conflicts).
                merged.editedAt[field] = later(ourTime, remote.editedAt[field])
            } else if !localChanged {
                merged.take(field, from: theirs)
            } else if !remoteChanged {
                continue
            } else if field.mergesAsSet, base != nil || entry.inFlight != nil
                        || (!entry.baseInDoubt && (ourTime == nil) == (theirTime == nil)) {
                // A set (tags, blockers): what either side added is in, what
                // either removed is out; two copies with no base, both edited
                // or neither, keep every element. A write of ours whose answer
                // never came is merged over what it may have left there.
                let inFlight = entry.inFlight
                if field == .tags {
                    let setBase = inFlight.map { Self.setBase(sent: $0.sent.tags, base: $0.base?.tags, remote: theirs.tags) } ?? base?.tags
                    merged.tags = mergedTags(base: setBase, local: ours.tags, remote: theirs.tags)
                } else {
                    let setBase = inFlight.map {
                        Self.setBase(sent: $0.sent.blockedBy, base: $0.base?.blockedBy, remote: theirs.blockedBy)
                    } ?? base?.blockedBy
                    merged.blockedBy = mergedSet(base: setBase, local: ours.blockedBy, remote: theirs.blockedBy)
                }
                // A set neither side held is an edit of its own, made just
                // after the later of the two: never mistaken for the server's
                // own value changed by a client that leaves no trace.
                let same = merged.holdsSame(field, as: theirs)
                merged.editedAt[field] = later(ourTime, theirTime).map { same ? $0 : $0.addingTimeInterval(0.001) }
            } else {
                let localWins = wins(.local, ourTime, theirTime, prefer: prefer)
                if !field.mergesAsSet {
                    conflicts.append(SyncConflict(
                        todoId: entry.todoId, field: field.rawValue,
                        localValue: ourFields[field], remoteValue: theirFields[field],
                        winner: localWins ? .local : .remote, at: now, localEditedAt: ourTime, remoteEditedAt: theirTime
                    ))
                }
                if !localWins { merged.take(field, from: theirs) }
            }
        }
        if let violation = merged.ruleViolation {
            conflicts.append(keepTogether(violation.fields, in: &merged, ours: ours, theirs: theirs, prefer: prefer, now: now))
        }
        merged.createdAt = min(ours.createdAt, theirs.createdAt)
        if ours.isDone, theirs.isDone {
            // Done on both sides: the completion of the done mark kept (the
            // later edit of it); the same edit, or two as old, the earlier.
            let (mine, other) = (ours.editedAt[.done], remote.editedAt[.done])
            let completions = mine == other ? [ours.completedAt, theirs.completedAt]
                : (mine ?? .distantPast) > (other ?? .distantPast) ? [ours.completedAt, theirs.completedAt]
                : [theirs.completedAt, ours.completedAt]
            merged.completedAt = mine == other ? completions.compactMap { $0 }.min() : completions.compactMap { $0 }.first
        }
        merged.updatedAt = merged.lastChanged

        var changed = changedFields(merged, remote: remote, keepsTimes: keepsTimes)
        for field in changed where merged.syncFields.holdsSame(field, as: remote.fields)
            && entry.base?.editedAt[field] == merged.editedAt[field]
            && Self.drops(sent: merged.editedAt[field], kept: remote.editedAt[field], keepsTimes: keepsTimes) {
            // Only its edit time differs, it was sent before, and the server
            // keeps none of what `todo` writes: not again.
            changed.remove(field)
        }
        step.editedAt = remote.editedAt
        for field in changed { step.editedAt[field] = merged.editedAt[field] }
        let datesDiffer = remote.createdAt != merged.createdAt || (merged.isDone && remote.completedAt != merged.completedAt)
        // Dates sent before that the server does not keep as sent are not sent again.
        let sentBefore = entry.base.map { $0.createdAt == merged.createdAt && $0.completedAt == merged.completedAt } ?? false
            && Self.drops(sent: merged.createdAt, kept: remote.createdAt, keepsTimes: keepsTimes)
            && (!merged.isDone || Self.drops(sent: merged.completedAt, kept: remote.completedAt, keepsTimes: keepsTimes))
        step.sendsDates = datesDiffer && (keepsTimes || !changed.isEmpty) && !sentBefore
        step.serverCreatedAt = step.sendsDates ? merged.createdAt : remote.createdAt
        step.serverCompletedAt = step.sendsDates || changed.contains(.done) ? merged.completedAt : remote.completedAt
        if !changed.isEmpty || step.sendsDates {
            step.remote = .update(id: remote.id, version: remote.version, fields: merged.syncFields, changed: changed)
        }
        if merged != local { step.local = .save(merged) }
        step.base = merged.syncFields
        step.conflicts = conflicts
        let settled = entry.base == step.newBase(remoteId: remote.id, version: remote.version)
        if settled, case .none = step.remote, merged == local, entry.pendingRev == nil { return nil }
        return step
    }

    /// The fields whose value on the server differs from `item`'s, and,
    /// on a server that keeps what `todo` writes, those whose edit time does.
    static func changedFields(_ item: TodoItem, remote: RemoteTodo, keepsTimes: Bool) -> Set<TodoField> {
        let fields = item.syncFields
        return Set(TodoField.allCases.filter { field in
            !fields.holdsSame(field, as: remote.fields) || (keepsTimes && item.editedAt[field] != remote.editedAt[field])
        })
    }

    /// Whether a server that holds `kept` where `sent` was written does not
    /// keep such values at all (it keeps nothing `todo` writes): sending it
    /// again would change nothing. Another client's different value is not
    /// that, nor a server that keeps what `todo` writes and lost this one
    /// (a restart): those are sent again.
    static func drops(sent: Date?, kept: Date?, keepsTimes: Bool) -> Bool {
        sent == nil || (kept == nil && !keepsTimes)
    }

    /// Settles a merge that broke a rule tying `fields` together: they are
    /// taken together from the side whose latest edit of them is the later
    /// (by the preference), which held them in a way the rule allows.
    static func keepTogether(
        _ fields: [TodoField], in merged: inout TodoItem, ours: TodoItem, theirs: TodoItem, prefer: ConflictPreference, now: Date
    ) -> SyncConflict {
        let ourTime = fields.compactMap { ours.editedAt[$0] }.max()
        let theirTime = fields.compactMap { theirs.editedAt[$0] }.max()
        let localWins = wins(.local, ourTime, theirTime, prefer: prefer)
        let winner = localWins ? ours : theirs
        for field in fields {
            merged.take(field, from: winner)
            // They travel as one edit, made when the winner's latest was.
            merged.editedAt[field] = localWins ? ourTime : theirTime
        }
        func values(_ item: TodoItem) -> String {
            fields.map { "\($0.rawValue) \(item.syncFields[$0].isEmpty ? "none" : item.syncFields[$0])" }.joined(separator: ", ")
        }
        return SyncConflict(
            todoId: merged.id, field: fields.map(\.rawValue).joined(separator: "+"),
            localValue: values(ours), remoteValue: values(theirs), winner: localWins ? .local : .remote, at: now,
            localEditedAt: ourTime, remoteEditedAt: theirTime
        )
    }

    /// Whether `side` wins a conflict between edits made at these times (nil:
    /// never edited, older than any edit): by the preference, else the later
    /// edit, a tie going to the server.
    static func wins(_ side: SyncConflict.Side, _ localTime: Date?, _ remoteTime: Date?, prefer: ConflictPreference) -> Bool {
        let localWins = switch prefer {
        case .local: true
        case .remote: false
        case .newest: (localTime ?? .distantPast) > (remoteTime ?? .distantPast)
        }
        return side == .local ? localWins : !localWins
    }

    static func later(_ first: Date?, _ second: Date?) -> Date? {
        guard let first else { return second }
        guard let second else { return first }
        return max(first, second)
    }

    /// The local edit times: the todo's own, and for a field changed since
    /// the last sync that has none (an edit made before edit times were
    /// kept), the todo's `updatedAt`.
    static func localTimes(_ local: TodoItem, base: SyncFields?) -> FieldTimes {
        var times = local.editedAt
        guard let base else { return times }
        let fields = local.syncFields
        for field in TodoField.allCases where times[field] == nil && !fields.holdsSame(field, as: base) {
            times[field] = local.updatedAt
        }
        return times
    }

    /// The server's edit times: those a `todo` wrote beside each field,
    /// except for a field changed since the last sync whose edit time is
    /// still the one the base recorded: that change (another client's, which
    /// leaves no such trace) counts as made now, when this sync first sees it.
    static func remoteTimes(_ entry: SyncEntry, remote: RemoteTodo, now: Date) -> FieldTimes {
        var times = remote.editedAt
        guard let base = entry.base else { return times }
        for field in TodoField.allCases
        where !remote.fields.holdsSame(field, as: base.fields) && remote.editedAt[field] == base.editedAt[field] {
            times[field] = now
        }
        return times
    }
}
