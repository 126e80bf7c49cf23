import TodoCore

/// The keys that change todos, each through `TodoLogic`.
extension TodoUIController {
    /// Filters on a keystroke. The window comes from a quick load, so the
    /// frame follows the key at once; if that stopped early (a rare one- or
    /// two-letter query in a long list), the rest is searched for in the
    /// background until the next keystroke replaces it.
    func search(_ query: String) async {
        searchTask?.cancel()
        searchTask = nil
        try? await logic.setQuery(query, remember: false)
        select(nil, row: 0)
        await reload(around: .top, effort: .quick)
        guard !state.window.isComplete else { return }
        searchTask = Task { [weak self] in
            await self?.reload(around: .top)
        }
    }

    func cycleFilter() async {
        let next: TodoRequest.Status = switch state.filter {
        case .pending: .done
        case .done: .all
        case .all: .pending
        }
        searchTask?.cancel()
        logic.setFilter(next)
        // The selected todo stays selected where the new filter still lists it.
        await reloadAroundSelection()
    }

    /// Marks the selected todo done or not done; completing a repeating one
    /// selects the next occurrence it brought (the query, if any, is kept).
    /// Completes (or reopens) the selected todo. A parent with open subtasks
    /// asks first: `x` again (`confirming` its id) completes them too.
    func toggleSelected(confirming: TodoItem.ID? = nil) async {
        guard let row = selectedRow else { return }
        let next: [TodoItem]
        do {
            (_, next, _) = try await logic.setDoneBringingNext(
                !row.item.isDone, idPrefixes: [row.item.idString], withSubtasks: confirming == row.id
            )
        } catch let .openSubtasks(_, open) {
            state.dismissError()
            view.confirmingSubtasksOf = row.id
            view.message = "“\(row.item.text)” has \(open) open subtask\(open == 1 ? "" : "s"): press x again to complete \(open == 1 ? "it" : "them") too"
            return
        } catch {
            return
        }
        if !row.item.isDone, let notice = row.item.recurrence?.completingKept { view.message = "Done: " + notice }
        if let occurrence = next.first {
            let position = TodoPosition(createdAt: occurrence.createdAt.millisecondsSince1970, sequence: .max)
            select(occurrence.id, position: position, row: view.selectionRow)
        }
        await reloadAroundSelection()
        await refreshCounts()
    }

    func deleteSelected() async {
        guard let row = selectedRow else { return }
        guard (try? await logic.deleteTodos(idPrefixes: [row.item.idString])) != nil else { return }
        await reloadAroundSelection()
        await refreshCounts()
    }

    /// Takes back the latest change made since the view opened, here or by
    /// any `todo` command (the database's undo journal), and selects what it
    /// brought back. Older changes are left to `todo undo` in a shell.
    func undo() async {
        guard let change = try? await logic.undo(after: undoStart) else {
            await reloadAroundSelection()
            return
        }
        view.message = "Undid the " + change.summary + " (U: redo)"
        await show(change)
    }

    /// Brings back what undo took back last, and selects it.
    func redo() async {
        guard let change = try? await logic.redo() else {
            await reloadAroundSelection()
            return
        }
        view.message = "Redid the " + change.summary
        await show(change)
    }

    /// Selects what an undo or a redo wrote back, and reloads around it.
    private func show(_ change: TodoUndo) async {
        let restored = change.restored
        if change.kind == .delete {
            // Back where it was: the newest restored todo, found by its creation time.
            let item = restored.max { $0.createdAt < $1.createdAt }
            let position = item.map { TodoPosition(createdAt: $0.createdAt.millisecondsSince1970, sequence: .max) }
            select(item?.id, position: position, row: view.selectionRow)
        } else if let item = restored.first {
            select(item.id, position: view.selectedPosition, row: view.selectionRow)
        }
        await reloadAroundSelection()
        await refreshCounts()
    }

    /// `s`: a sync at once; `F` (`force`): one that makes the deletions the
    /// last sync held back.
    func sync(force: Bool = false) {
        if let live {
            if force { live.requestForcedSync() } else { live.requestSync() }
            return
        }
        guard syncTask == nil, !state.isSyncing else { return }
        let syncer: any TodoSyncing
        do {
            guard let makeSyncer else { throw TodoError.failed("sync is not available here") }
            syncer = try makeSyncer()
        } catch {
            state.actionFailed(TodoError(error))
            return
        }
        syncTask = Task { [weak self] in
            guard let self else { return }
            // Held deletions are asked about in the footer instead.
            if let summary = try? await logic.sync(with: syncer, force: force), summary.heldBack == nil {
                view.message = summary.line
            }
            syncTask = nil
            await reloadAroundSelection()
            await refreshCounts()
        }
    }
}
