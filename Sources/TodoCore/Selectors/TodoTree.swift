import Foundation

/// A listed todo with how deep it sits under the listed todos above it.
public struct TreeRow: Sendable, Hashable {
    public var item: TodoItem
    /// 0 for a todo whose parent is not listed (or that has none).
    public var depth: Int
    /// How many of the listed todos are its subtasks, directly.
    public var subtasks: Int
}

/// `items` as a tree: each todo in its list order, except that a subtask
/// whose parent is listed comes right under it (after its earlier
/// siblings), one level deeper. A subtask whose parent is not listed (or
/// is gone) stands at the top level where its order puts it.
public func selectTree(_ items: [TodoItem]) -> [TreeRow] {
    let listed = Set(items.map(\.id))
    var children: [UUID: [TodoItem]] = [:]
    for item in items {
        if let parent = item.parent, parent != item.id, listed.contains(parent) {
            children[parent, default: []].append(item)
        }
    }
    guard !children.isEmpty else { return items.map { TreeRow(item: $0, depth: 0, subtasks: 0) } }
    var rows: [TreeRow] = []
    rows.reserveCapacity(items.count)
    var placed = Set<UUID>()
    // Each top todo, then its subtasks depth first, with a stack of its own
    // (a chain of many thousands would overflow a recursion's).
    func place(_ top: TodoItem) {
        var pending = [(item: top, depth: 0)]
        while let (item, depth) = pending.popLast() {
            guard placed.insert(item.id).inserted else { continue }
            let own = children[item.id] ?? []
            rows.append(TreeRow(item: item, depth: depth, subtasks: own.count))
            pending += own.reversed().map { ($0, depth + 1) }
        }
    }
    for item in items {
        let underListedParent = item.parent.map { listed.contains($0) && $0 != item.id } ?? false
        if !underListedParent { place(item) }
    }
    // Todos in a cycle of parents (which sync repairs) have no top: list them as they come.
    for item in items where !placed.contains(item.id) { place(item) }
    return rows
}
