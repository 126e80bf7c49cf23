import Foundation

// MARK: - Transitions of a view that stays open

extension TodoState {
    /// A window of the list arrived. It leaves the error alone: a reload after
    /// a failed action must not hide the failure.
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

    /// A change was taken back (`TodoLogic.undo`) or brought back
    /// (`redo`): each loaded row it touched is as storage wrote it back, or
    /// gone if it was not written back. A todo it brought back shows once a
    /// window reloads (only storage knows its place).
    public func undid(_ change: TodoUndo) {
        update {
            $0.error = nil
            let restored = change.restored
            let written = Set(restored.map(\.id))
            $0.remove(ids: Set(change.changes.map(\.id).filter { !written.contains($0) }))
            $0.replace(restored)
        }
    }
}
