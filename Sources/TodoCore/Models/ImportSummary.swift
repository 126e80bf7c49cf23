import Foundation

/// What an import did, or would do (a dry run).
public struct ImportSummary: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Where in the file the todos it adds are.
    public var added: [Int] = []
    /// Each todo here that the import changes or found a conflict on: as it
    /// was, and how the file merged into it (`ImportMerge`).
    public var merges: [Merge] = []
    /// Where in the file the todos older than the last import of them are
    /// (`ImportMerge.isStale`): kept, and not remembered as seen.
    public var stale: [Int] = []

    public init() {}

    public struct Merge: Sendable, Equatable {
        public var before: TodoItem
        public var merge: ImportMerge

        public init(before: TodoItem, merge: ImportMerge) {
            self.before = before
            self.merge = merge
        }
    }
}

/// What an import does with a todo whose ID is here already.
public enum ImportReplacing: Sendable {
    /// Merges field by field against what the last import of it saw (JSON,
    /// Taskwarrior: ids of their own, and edits on both sides).
    case merging
    /// Keeps the todo here (todo.txt: an id derived from the line names the same line again).
    case never
}
