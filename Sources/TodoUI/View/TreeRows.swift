import Foundation
import TodoCore

/// A row as the view shows it: where it sits in the tree of subtasks.
public struct TreeWindowRow: Sendable, Equatable {
    public var row: TodoWindow.Row
    /// 0 at the top; one more for each listed parent above it.
    public var depth: Int
    /// How many of the loaded rows are its subtasks, directly.
    public var subtasks: Int
}

extension TodoView {
    /// The loaded rows as the view shows them (`selectTree`): subtasks right
    /// under their parent, and only while it is unfolded; parents start folded.
    public static func visibleRows(_ rows: [TodoWindow.Row], unfolded: Set<TodoItem.ID>) -> [TreeWindowRow] {
        // Most lists have no subtasks: the rows as they are.
        guard rows.contains(where: { $0.item.parent != nil }) else {
            return rows.map { TreeWindowRow(row: $0, depth: 0, subtasks: 0) }
        }
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var shown: [TreeWindowRow] = []
        // The depth below which rows are hidden: under a folded parent.
        var hiddenBelow = Int.max
        for tree in selectTree(rows.map(\.item)) {
            if tree.depth > hiddenBelow { continue }
            hiddenBelow = Int.max
            guard let row = byID[tree.item.id] else { continue }
            shown.append(TreeWindowRow(row: row, depth: tree.depth, subtasks: tree.subtasks))
            if tree.subtasks > 0, !unfolded.contains(row.id) { hiddenBelow = tree.depth }
        }
        return shown
    }
}
