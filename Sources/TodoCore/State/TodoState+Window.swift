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

    /// The last undoable change was taken back (or could not be, and is
    /// forgotten): it leaves the history, and the todos show it.
    public func undid(_ change: TodoUndo, error: TodoError? = nil) {
        update {
            if $0.undoable.last == change { $0.undoable.removeLast() }
            $0.error = error
            guard error == nil else { return }
            switch change {
            case .add(let item): $0.remove(ids: [item.id])
            case .change(let before): $0.replace(before)
            case .delete(let items): $0.reinsert(items)
            }
        }
    }
}
