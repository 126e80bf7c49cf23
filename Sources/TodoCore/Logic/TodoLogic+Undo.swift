// MARK: - Undo

extension TodoLogic {
    /// Takes back the latest change made on this machine (by this view or any
    /// other `todo` command), as storage's journal has it, and returns it;
    /// `.nothingToUndo` if none is left, `.undoConflict` if a todo it touched
    /// was changed since by a sync (`force` puts its earlier values back anyway).
    /// `progress` hears how far a large one got. A dry run answers the same
    /// (refusals included) and changes nothing.
    @discardableResult
    public func undo(
        force: Bool = false, after position: Int? = nil, dryRun: Bool = false,
        progress: @escaping @Sendable (TodoUndo.Progress) -> Void = { _ in }
    ) async throws(TodoError) -> TodoUndo {
        let now = environment.now()
        return try await run { [storage] in
            try await storage.undoLast(force: force, after: position, at: now, dryRun: dryRun, progress: progress)
        } then: { change in
            if !dryRun { self.state.undid(change) }
        }
    }

    /// Brings back what undo took back last; `.nothingToRedo` if nothing.
    @discardableResult
    public func redo(progress: @escaping @Sendable (TodoUndo.Progress) -> Void = { _ in }) async throws(TodoError) -> TodoUndo {
        let now = environment.now()
        return try await run { [storage] in
            try await storage.redoLast(at: now, progress: progress)
        } then: { change in
            self.state.undid(change)
        }
    }

    /// Where the journal stands: changes numbered above it were made since.
    public func undoPosition() async throws(TodoError) -> Int {
        try await run { [storage] in
            try await storage.undoPosition()
        } then: { _ in }
    }

    /// The changes `undo` would take back, the latest first.
    public func undoHistory(limit: Int) async throws(TodoError) -> [TodoUndo] {
        try await run { [storage] in
            try await storage.undoHistory(limit: limit)
        } then: { _ in }
    }
}
