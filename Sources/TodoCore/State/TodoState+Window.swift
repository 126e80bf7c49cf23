import Foundation

// MARK: - Transitions of a view that stays open

extension TodoState {
    /// A window of the list arrived. Unlike `fetchTodoSuccess` it leaves the
    /// error alone: a reload after a failed action must not hide the failure.
    public func windowLoaded(_ window: TodoWindow) {
        update { $0.window = window }
    }

    /// Like a new query, a new filter leaves the loaded window incomplete.
    public func setFilter(_ filter: TodoRequest.Status) {
        update {
            if $0.filter != filter { $0.window.isComplete = false }
            $0.filter = filter
        }
    }

    public func countsLoaded(_ counts: TodoCounts) {
        update { $0.counts = counts }
    }

    /// A change was taken back (`TodoLogic.undo`): the todos show it. A
    /// todo it had added goes, one it had changed or deleted is back as
    /// storage wrote it.
    public func undid(_ change: TodoUndo) {
        update {
            $0.error = nil
            $0.remove(ids: Set(change.changes.filter { $0.before == nil }.map(\.id)))
            let restored = change.restored
            let shown = Set($0.items.map(\.id))
            $0.replace(restored.filter { shown.contains($0.id) })
            $0.reinsert(restored.filter { !shown.contains($0.id) })
        }
    }
}
