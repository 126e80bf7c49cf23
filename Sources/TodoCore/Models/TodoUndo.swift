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

    /// How far taking a change back (or bringing it back) got, in rows
    /// read and written: an import of 300,000 todos is seconds of work.
    public typealias Progress = WorkProgress

    /// Its place in the journal: later changes have larger numbers.
    public var number: Int
    /// When the change was made.
    public var at: Date
    public var kind: Kind
    /// The todos it touched, each once, those it changed first.
    public var changes: [Change]
    /// The todos as undoing it wrote them back (`Change.restoring`); empty
    /// until it is undone.
    public var restored: [TodoItem]

    public init(number: Int, at: Date, kind: Kind, changes: [Change], restored: [TodoItem] = []) {
        self.number = number
        self.at = at
        self.kind = kind
        self.changes = changes
        self.restored = restored
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

    private static func naming(_ items: [TodoItem]) -> String {
        items.count == 1 ? "“\(items[0].text)”" : count(items.count)
    }

    private static func count(_ number: Int) -> String {
        "\(number) todo" + (number == 1 ? "" : "s")
    }
}

extension TodoUndo {
    /// The change as redo applies it: each todo's "after" put back over its "before".
    public var reversed: TodoUndo {
        TodoUndo(
            number: number, at: at, kind: kind,
            changes: changes.map { TodoUndo.Change(id: $0.id, before: $0.after, after: $0.before) }
        )
    }
}

extension TodoUndo.Change {
    /// Whether the todo holds, field by field, what this change left in it:
    /// if not, something else (a sync) changed it since. Dates and edit
    /// times are not compared: a sync that only agreed on them with other
    /// replicas changed nothing a person wrote.
    public func isCurrent(_ now: TodoItem?) -> Bool {
        switch (after, now) {
        case (nil, nil): return true
        case let (after?, now?): return TodoField.allCases.allSatisfy { now.holdsSame($0, as: after) }
        default: return false
        }
    }

    /// Whether undoing this change over `now` would overwrite a change made
    /// since by something else (a sync, another process): a field this
    /// change wrote that holds another value now; for a todo it added (undo
    /// deletes it), any change to it; for one it deleted, its being back.
    /// A field this change left alone may have changed: undo puts back only
    /// the fields it wrote, and keeps that change.
    public func isOverwritten(by now: TodoItem?) -> Bool {
        guard let before, let after, let now else { return !isCurrent(now) }
        return TodoField.allCases.contains { !before.holdsSame($0, as: after) && !now.holdsSame($0, as: after) }
    }

    /// Whether the change left the todo as it found it (a done mark on a
    /// todo already done): nothing to undo.
    public var isNoChange: Bool {
        before == after
    }

    /// The todo as undoing this change at `date` writes it back over
    /// `current` (nil: gone); nil when the change added it, so undo deletes it.
    ///
    /// Only the fields the change wrote go back, each with the value and the
    /// edit time it had before, so a change undone before any sync leaves the
    /// todo as if it had never been made, `updatedAt` included; a field
    /// changed since by something else (a sync, under `--force`) keeps that
    /// change. Where a sync already sent the change's value (`published`:
    /// what the server held at the last sync, if it was ever synced), putting
    /// the old value back is an edit of its own, stamped `date`, so the next
    /// sync sends the undo as the newest edit. A deleted todo comes back whole.
    public func restoring(onto current: TodoItem?, published: TodoItem?, at date: Date) -> TodoItem? {
        guard let before else { return nil }
        guard let after, var item = current else { return before }
        var stamped = false
        for field in TodoField.allCases where !before.holdsSame(field, as: after) {
            item.take(field, from: before)
            if let published, published.holdsSame(field, as: after) {
                item.editedAt[field] = date
                stamped = true
            } else {
                item.editedAt[field] = before.editedAt[field]
            }
        }
        if item.ruleViolation != nil {
            // Forced over a change made since (a sync): the fields the rule
            // ties together go back together, as they were.
            for field in [TodoField.due, .recurrence] { item.take(field, from: before) }
        }
        item.updatedAt = stamped || !isCurrent(current) ? date.roundedToMilliseconds : before.updatedAt
        return item
    }
}
