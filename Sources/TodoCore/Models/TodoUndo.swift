import Foundation

/// A change made on this machine that undo can take back: every todo it
/// touched, as it was before and after.
///
/// Storage keeps them in a journal, written in the same transaction as the
/// change itself, so `todo undo` in one process takes back what `todo done`
/// did in another. A sync's writes are not changes made here and are not in it.
public struct TodoUndo: Sendable, Equatable {
    /// What wrote the change.
    public enum Kind: String, Sendable, Equatable {
        /// `todo add`.
        case add
        /// `todo edit`, or done and undone marks, with the next occurrence a
        /// completed repeating todo brought.
        case update
        /// `todo rm`.
        case delete
        /// `todo import`.
        case `import`
    }

    /// One todo's part in the change.
    public struct Change: Sendable, Equatable {
        public var id: UUID
        /// Nil: the change added the todo.
        public var before: TodoItem?
        /// Nil: the change deleted the todo.
        public var after: TodoItem?

        public init(id: UUID, before: TodoItem?, after: TodoItem?) {
            self.id = id
            self.before = before
            self.after = after
        }
    }

    /// Its place in the journal: later changes have larger numbers.
    public var number: Int
    /// When the change was made.
    public var at: Date
    public var kind: Kind
    /// The todos it touched, each once, those it changed first.
    public var changes: [Change]

    public init(number: Int, at: Date, kind: Kind, changes: [Change]) {
        self.number = number
        self.at = at
        self.kind = kind
        self.changes = changes
    }
}

// MARK: - Describing

extension TodoUndo {
    /// The command that made it, as typed: add, edit, done, undone, rm or import.
    public var command: String {
        switch kind {
        case .add: return "add"
        case .delete: return "rm"
        case .import: return "import"
        case .update:
            let marks = changes.compactMap { change in
                change.before.flatMap { before in change.after.map { (before.isDone, $0.isDone) } }
            }
            if !marks.isEmpty, marks.allSatisfy({ !$0.0 && $0.1 }) { return "done" }
            if !marks.isEmpty, marks.allSatisfy({ $0.0 && !$0.1 }) { return "undone" }
            return "edit"
        }
    }

    /// What was done, in a few words, to follow "Undid the ": "add of “buy milk”".
    public var summary: String {
        let added = changes.filter { $0.before == nil }
        let kept = changes.filter { $0.before != nil && $0.after != nil }
        switch command {
        case "add":
            return "add of " + Self.naming(added.compactMap(\.after))
        case "rm":
            return "delete of " + Self.naming(changes.compactMap(\.before))
        case "import":
            let parts = [(added.count, "added"), (kept.count, "updated")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            return "import of \(Self.count(changes.count))" + (parts.count > 1 ? " (" + parts.joined(separator: ", ") + ")" : "")
        case let command:
            let marks = command == "edit" ? "edit of " : "\(command) mark of "
            let next = added.isEmpty ? "" : added.count == 1 ? " and the next occurrence it added" : " and the \(added.count) next occurrences it added"
            return marks + Self.naming(kept.compactMap(\.after)) + next
        }
    }

    /// The todos as written back by undoing the change at `date`: each one it
    /// changed or deleted as it was before, stamped as changed at `date`, so
    /// a sync takes the undo for the latest edit it is.
    public func restored(at date: Date) -> [TodoItem] {
        changes.compactMap { change in
            change.before.map { before in
                var item = before
                item.updatedAt = date.roundedToMilliseconds
                return item
            }
        }
    }

    private static func naming(_ items: [TodoItem]) -> String {
        items.count == 1 ? "“\(items[0].text)”" : count(items.count)
    }

    private static func count(_ number: Int) -> String {
        "\(number) todo" + (number == 1 ? "" : "s")
    }
}

extension TodoUndo.Change {
    /// Whether the todo is, apart from when it was last changed, as this change
    /// left it: if not, something else (a sync) changed it since.
    public func isCurrent(_ now: TodoItem?) -> Bool {
        switch (after, now) {
        case (nil, nil): return true
        case (let after?, var now?):
            now.updatedAt = after.updatedAt
            return now == after
        default: return false
        }
    }

    /// Whether the change left the todo as it found it (a done mark on a
    /// todo already done): nothing to undo.
    public var isNoChange: Bool {
        before == after
    }
}
