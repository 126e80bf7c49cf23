import Foundation
import TodoCore

// MARK: - Fields merged as sets, and what a server's item holds

extension SyncPlanner {
    /// Tags merged as a set, three-way: kept where both sides kept them,
    /// added where either side added them; with no base, every tag of either side.
    static func mergedTags(base: [String]?, local: [String], remote: [String]) -> [String] {
        TodoTags.normalized(mergedSet(base: base, local: local, remote: remote))
    }

    /// The base a set field is merged over when a write of ours sent it and
    /// its answer never came: the server may hold what was sent or what the
    /// base holds. An element both hold is in; one the write added or
    /// removed is taken as the server holds it now, so the server's side
    /// did not change it and this side's value of it stands (a tag removed
    /// here since stays removed; one the write added that never arrived is
    /// still added). Elements the write did not touch keep the base's say.
    static func setBase<Element: Hashable>(sent: [Element], base: [Element]?, remote: [Element]) -> [Element] {
        let sent = Set(sent), base = Set(base ?? []), remote = Set(remote)
        return Array(sent.intersection(base).union(sent.symmetricDifference(base).intersection(remote)))
    }

    /// Elements merged as a set, three-way: kept where both sides kept them,
    /// added where either side added them; with no base, every element of
    /// either side. In no particular order.
    static func mergedSet<Element: Hashable>(base: [Element]?, local: [Element], remote: [Element]) -> [Element] {
        let local = Set(local), remote = Set(remote)
        guard let base else { return Array(local.union(remote)) }
        let kept = local.intersection(remote), held = Set(base)
        return Array(kept.union(local.subtracting(held)).union(remote.subtracting(held)))
    }
}

extension TodoFieldError {
    /// The fields a rule ties together, for the rules a merge can break.
    var fields: [TodoField] {
        switch self {
        case .repeatNeedsDue: [.due, .recurrence]
        default: []
        }
    }
}

extension RemoteTodo {
    /// The todo this item holds, with these edit times: its dates, else
    /// `now` (first seen) for its creation and its edit of the done mark for
    /// its completion; a repeat without a due date (another client's doing)
    /// left out, as no todo holds one.
    func item(todoId: UUID, times: FieldTimes, seenAt now: Date) -> TodoItem {
        var item = fields.item(id: todoId, createdAt: createdAt ?? now)
        item.completedAt = fields.isDone ? (completedAt ?? editedAt[.done] ?? updatedAt ?? now).roundedToMilliseconds : nil
        item.editedAt = times
        if item.ruleViolation == .repeatNeedsDue { item.recurrence = nil }
        // Another client's link of a todo to itself is no link.
        if item.parent == todoId { item.parent = nil }
        if item.blockedBy.contains(todoId) { item.blockedBy.removeAll { $0 == todoId } }
        item.updatedAt = item.lastChanged
        return item
    }
}

extension FieldTimes {
    /// Whether some field was edited later here than in `other`.
    func isLater(than other: FieldTimes) -> Bool {
        TodoField.allCases.contains { (self[$0] ?? .distantPast) > (other[$0] ?? .distantPast) }
    }
}
