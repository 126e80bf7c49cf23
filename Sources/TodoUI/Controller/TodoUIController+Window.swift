import TodoCore

/// Moving through the list and loading the window of it around the selection.
extension TodoUIController {
    // MARK: - Moving

    /// The rows the view shows, from the loaded window.
    var rows: [TodoWindow.Row] {
        TodoView.visibleRows(selectWindowRows(state: state), unfolded: view.unfolded).map(\.row)
    }

    var selectedRow: TodoWindow.Row? {
        let rows = rows
        return view.selectedID.flatMap { id in rows.first { $0.id == id } } ?? rows.first
    }

    func move(by delta: Int) async {
        let rows = rows
        guard !rows.isEmpty else { return }
        let current = view.selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0
        let target = min(max(current + delta, 0), rows.count - 1)
        let layout = ListLayout(
            count: rows.count, selected: current, preferredRow: view.selectionRow,
            height: listHeight, hasOlder: state.window.hasOlder
        )
        select(rows[target].id, position: rows[target].position, row: layout.selectionRow + (target - current))
        await loadMoreIfNeeded()
    }

    func jump(to anchor: TodoWindow.Anchor) async {
        await reload(around: anchor)
        let rows = rows
        guard let row = anchor == .top ? rows.first : rows.last else { return }
        select(row.id, position: row.position, row: anchor == .top ? 0 : listHeight - 1)
    }

    /// Reloads around the selection when it is within a page of the end of
    /// what is loaded and more exists beyond.
    func loadMoreIfNeeded() async {
        if isNearAnEdge { await reloadAroundSelection() }
    }

    func select(_ id: TodoItem.ID?, position: TodoPosition? = nil, row: Int) {
        view.selectedID = id
        view.selectedPosition = position
        view.selectionRow = min(max(row, 0), listHeight - 1)
    }

    // MARK: - Loading

    /// Reloads the window around the selection, keeping it on the same todo
    /// if it still exists, else on its neighbour.
    public func reloadAroundSelection() async {
        await reload(around: view.selectedPosition.map { .position($0) } ?? .top)
    }

    func reload(around anchor: TodoWindow.Anchor, effort: TodoWindow.Effort = .complete) async {
        var margin = 2 * listHeight
        // Folded subtasks take rows of the window but none of the screen: a
        // window short of a page either way for them is loaded again, wider.
        for _ in 0..<4 {
            try? await logic.loadWindow(
                around: anchor, newer: anchor == .top ? 0 : margin, older: anchor == .bottom ? 0 : margin, effort: effort
            )
            reconcileSelection()
            let hidden = selectWindowRows(state: state).count - rows.count
            guard hidden > 0, isNearAnEdge else { break }
            margin += hidden
        }
    }

    /// The selection is within a page of the shown rows' ends, with more beyond.
    private var isNearAnEdge: Bool {
        let rows = rows
        guard let index = view.selectedID.flatMap({ id in rows.firstIndex { $0.id == id } }) else { return false }
        return (index < listHeight && state.window.hasNewer) || (rows.count - 1 - index < listHeight && state.window.hasOlder)
    }

    /// After a reload: the same todo if it is still there, else the one that
    /// now sits where it was, else the first.
    func reconcileSelection() {
        let rows = rows
        guard !rows.isEmpty else {
            view.selectedID = nil
            return
        }
        if let id = view.selectedID, let row = rows.first(where: { $0.id == id }) {
            view.selectedPosition = row.position
            return
        }
        let replacement = view.selectedPosition.flatMap { position in
            rows.first { !($0.position < position) } ?? rows.last
        } ?? rows[0]
        view.selectedID = replacement.id
        view.selectedPosition = replacement.position
    }

    /// Counting reads an index range per status, the one load that grows with
    /// the list (tens of milliseconds at a million todos): a view loads the
    /// counts after the frame that shows the rows.
    public func refreshCounts() async {
        try? await logic.loadCounts()
    }

    /// Called when the database's files were written (and once a second):
    /// reloads if another process changed the todos, and answers whether one
    /// had. A view showing the top of the list stays at the top, so todos
    /// added elsewhere appear above the selection instead of out of sight.
    @discardableResult
    public func checkForChanges() async -> Bool {
        guard (try? await logic.storageChangedElsewhere()) == true else { return false }
        let showedTop = isShowingTop
        await reloadAroundSelection()
        if showedTop, let index = view.selectedID.flatMap({ id in rows.firstIndex { $0.id == id } }), !state.window.hasNewer {
            view.selectionRow = min(index, listHeight - 1)
        }
        await refreshCounts()
        return true
    }

    /// Whether the first row on screen is the newest todo the list has.
    var isShowingTop: Bool {
        guard !state.window.hasNewer else { return false }
        let rows = rows
        let index = view.selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0
        return index <= view.selectionRow
    }
}

// MARK: - Folding subtasks

extension TodoUIController {
    /// Unfolds the selected todo if it is a folded parent; false if it is not.
    func unfoldSelected() -> Bool {
        guard let row = selectedRow, !view.unfolded.contains(row.id),
              selectWindowRows(state: state).contains(where: { $0.item.parent == row.id }) else { return false }
        view.unfolded.insert(row.id)
        return true
    }

    /// Folds the selected parent, or the parent of the selected subtask (and selects it).
    func foldSelected() {
        guard let row = selectedRow else { return }
        if view.unfolded.remove(row.id) != nil { return }
        guard let parent = row.item.parent, let parentRow = selectWindowRows(state: state).first(where: { $0.id == parent }) else { return }
        view.unfolded.remove(parent)
        select(parentRow.id, position: parentRow.position, row: max(0, view.selectionRow - 1))
    }
}
