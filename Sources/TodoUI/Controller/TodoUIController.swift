import TodoCore
import TodoTerminal

/// What keys do: each one changes the view's own state or calls `TodoLogic`,
/// never storage. The screen follows from `TodoState` and `view`.
///
/// The list is virtualized: the state holds a window of the rows around the
/// selection, a page or two each way, reloaded around the selection when it
/// comes within a page of the window's edge.
@MainActor
public final class TodoUIController {
    public let logic: TodoLogic
    /// The view's own state; every change redraws (see `onViewChange`).
    public private(set) var view: ViewState {
        didSet { if view != oldValue { onViewChange?() } }
    }
    /// The terminal's size: the list's height decides what is loaded.
    public var size: TerminalSize
    /// Builds the syncer for `s`, or throws why there is none.
    private let makeSyncer: (@MainActor () throws -> any TodoSyncing)?
    /// Called when the view's own state changed (the state has `onChange`).
    public var onViewChange: (() -> Void)?
    /// Set by `q` and Ctrl-C.
    public private(set) var wantsToQuit = false
    /// The sync `s` started, if it is running.
    public private(set) var syncTask: Task<Void, Never>?

    public init(
        logic: TodoLogic, size: TerminalSize, view: ViewState = ViewState(),
        makeSyncer: (@MainActor () throws -> any TodoSyncing)? = nil
    ) {
        self.logic = logic
        self.size = size
        self.view = view
        self.makeSyncer = makeSyncer
    }

    var state: TodoState { logic.state }
    var listHeight: Int { TodoView.listHeight(for: size) }

    /// Loads the first window (the counts follow: see `refreshCounts`).
    public func start() async {
        // What "changed elsewhere" is measured from.
        _ = try? await logic.storageChangedElsewhere()
        await reload(around: .top)
    }

    // MARK: - Keys

    public func handle(_ key: Key) async {
        if key == .control("c") {
            wantsToQuit = true
            return
        }
        view.message = nil
        switch view.mode {
        case .help:
            view.mode = .browsing
        case .browsing:
            await browse(key)
        case .searching, .adding, .editing:
            await type(key)
        }
    }

    public func handle(_ keys: [Key]) async {
        for key in keys where !wantsToQuit {
            await handle(key)
        }
    }

    private func browse(_ key: Key) async {
        switch key {
        case .character("j"), .down: await move(by: 1)
        case .character("k"), .up: await move(by: -1)
        case .pageDown, .control("f"): await move(by: listHeight)
        case .pageUp, .control("b"): await move(by: -listHeight)
        case .character("g"), .home: await jump(to: .top)
        case .character("G"), .end: await jump(to: .bottom)
        case .character("/"):
            view.input = state.query
            view.mode = .searching
        case .character("a"):
            view.input = ""
            view.mode = .adding
        case .character("e"):
            guard let row = selectedRow else { return }
            view.input = row.item.text
            view.mode = .editing(row.id)
        case .character("x"), .character(" "): await toggleSelected()
        case .character("d"), .delete: await deleteSelected()
        case .character("u"): await undo()
        case .tab: await cycleFilter()
        case .character("s"): sync()
        case .character("r"):
            await reloadAroundSelection()
            await refreshCounts()
        case .character("?"): view.mode = .help
        case .character("q"): wantsToQuit = true
        case .escape:
            if state.error != nil { state.dismissError() }
        default: break
        }
    }

    private func type(_ key: Key) async {
        switch key {
        case .character(let character):
            view.input.append(character)
            if view.mode == .searching { await search(view.input) }
        case .backspace:
            guard !view.input.isEmpty else { return }
            view.input.removeLast()
            if view.mode == .searching { await search(view.input) }
        case .control("u"):
            view.input = ""
            if view.mode == .searching { await search("") }
        case .enter:
            await submit()
        case .escape:
            if view.mode == .searching { await search("") }
            view.mode = .browsing
        default: break
        }
    }

    private func submit() async {
        let text = view.input
        switch view.mode {
        case .searching:
            view.mode = .browsing
            try? await logic.setQuery(text)
        case .adding:
            guard let item = try? await logic.addTodo(text: text) else {
                // The error shows in the footer; the typed text stays to fix.
                return
            }
            view.mode = .browsing
            select(item.id, row: 0)
            await reload(around: .top)
            await refreshCounts()
        case .editing(let id):
            guard (try? await logic.editTodo(idPrefix: id.lowercasedString, text: text)) != nil else { return }
            view.mode = .browsing
            await reloadAroundSelection()
        case .browsing, .help:
            break
        }
    }

    // MARK: - Moving

    /// The rows the view shows, from the loaded window.
    var rows: [TodoWindow.Row] { selectWindowRows(state: state) }

    var selectedRow: TodoWindow.Row? {
        let rows = rows
        return view.selectedID.flatMap { id in rows.first { $0.id == id } } ?? rows.first
    }

    private func move(by delta: Int) async {
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

    private func jump(to anchor: TodoWindow.Anchor) async {
        await reload(around: anchor)
        let rows = rows
        guard let row = anchor == .top ? rows.first : rows.last else { return }
        select(row.id, position: row.position, row: anchor == .top ? 0 : listHeight - 1)
    }

    /// Reloads around the selection when it is within a page of the end of
    /// what is loaded and more exists beyond.
    private func loadMoreIfNeeded() async {
        let rows = rows
        guard let index = view.selectedID.flatMap({ id in rows.firstIndex { $0.id == id } }) else { return }
        let window = state.window
        if (index < listHeight && window.hasNewer) || (rows.count - 1 - index < listHeight && window.hasOlder) {
            await reloadAroundSelection()
        }
    }

    private func select(_ id: TodoItem.ID?, position: TodoPosition? = nil, row: Int) {
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

    private func reload(around anchor: TodoWindow.Anchor) async {
        let margin = 2 * listHeight
        try? await logic.loadWindow(
            around: anchor, newer: anchor == .top ? 0 : margin, older: anchor == .bottom ? 0 : margin
        )
        reconcileSelection()
    }

    /// After a reload: the same todo if it is still there, else the one that
    /// now sits where it was, else the first.
    private func reconcileSelection() {
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

    /// Called about once a second: reloads if another process changed the todos.
    public func checkForChanges() async {
        guard (try? await logic.storageChangedElsewhere()) == true else { return }
        await reloadAroundSelection()
        await refreshCounts()
    }

    // MARK: - Actions

    private func search(_ query: String) async {
        try? await logic.setQuery(query, remember: false)
        select(nil, row: 0)
        await reload(around: .top)
    }

    private func cycleFilter() async {
        let next: TodoRequest.Status = switch state.filter {
        case .pending: .done
        case .done: .all
        case .all: .pending
        }
        logic.setFilter(next)
        select(nil, row: 0)
        await reload(around: .top)
    }

    private func toggleSelected() async {
        guard let row = selectedRow else { return }
        guard (try? await logic.setDone(!row.item.isDone, idPrefixes: [row.item.idString])) != nil else { return }
        await reloadAroundSelection()
        await refreshCounts()
    }

    private func deleteSelected() async {
        guard let row = selectedRow else { return }
        guard (try? await logic.deleteTodos(idPrefixes: [row.item.idString])) != nil else { return }
        await reloadAroundSelection()
        await refreshCounts()
    }

    private func undo() async {
        guard let change = try? await logic.undo() else {
            await reloadAroundSelection()
            return
        }
        view.message = "Undid the " + change.summary
        switch change {
        case .add:
            await reloadAroundSelection()
        case .change(let before):
            select(before.first?.id, position: view.selectedPosition, row: view.selectionRow)
            await reloadAroundSelection()
        case .delete(let items):
            // Back where it was: the newest restored todo, found by its creation time.
            let item = items.max { $0.createdAt < $1.createdAt }
            let position = item.map { TodoPosition(createdAt: $0.createdAt.millisecondsSince1970, sequence: .max) }
            select(item?.id, position: position, row: view.selectionRow)
            await reloadAroundSelection()
        }
        await refreshCounts()
    }

    private func sync() {
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
            if let summary = try? await logic.sync(with: syncer) {
                view.message = summary.line
            }
            syncTask = nil
            await reloadAroundSelection()
            await refreshCounts()
        }
    }
}
