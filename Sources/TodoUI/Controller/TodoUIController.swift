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
    public internal(set) var view: ViewState {
        didSet { if view != oldValue { onViewChange?() } }
    }
    /// The terminal's size: the list's height decides what is loaded.
    public var size: TerminalSize
    /// Builds the syncer for `s`, or throws why there is none.
    let makeSyncer: (@MainActor () throws -> any TodoSyncing)?
    /// Syncs by itself when the view is live (`todo ui` with a server
    /// remembered); then `s` asks it for a sync at once.
    public var live: LiveSync?
    /// Called when the view's own state changed (the state has `onChange`).
    public var onViewChange: (() -> Void)?
    /// Set by `q` and Ctrl-C.
    public private(set) var wantsToQuit = false
    /// The sync `s` started, if it is running.
    public internal(set) var syncTask: Task<Void, Never>?
    /// The rest of a search a keystroke started, while it runs.
    public internal(set) var searchTask: Task<Void, Never>?
    /// Where the undo journal stood when the view opened: `u` takes back only
    /// what was made since, never work done before it (an import from the shell).
    var undoStart: Int?

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
        undoStart = (try? await logic.undoPosition()) ?? Int.max
        // A context that is on narrows the list and fills in new todos.
        try? await logic.loadContext()
        await reload(around: .top)
    }

    // MARK: - Keys

    public func handle(_ key: Key) async {
        if key == .control("c") {
            wantsToQuit = true
            return
        }
        view.message = nil
        // Asked about a parent's subtasks: only the very next key answers.
        let confirming = view.confirmingSubtasksOf
        view.confirmingSubtasksOf = nil
        switch view.mode {
        case .help, .details:
            view.mode = .browsing
        case .browsing:
            await browse(key, confirming: confirming)
        case .searching, .adding, .editing:
            await type(key)
        }
    }

    /// The keys of one read from the terminal, in order. A question (`x` on
    /// a parent with open subtasks) is answered by a key pressed after it,
    /// never by the rest of the read that asked it: a pasted "xx" asks, and
    /// completes nothing.
    public func handle(_ keys: [Key]) async {
        for (index, key) in keys.enumerated() where !wantsToQuit {
            await handle(key)
            if index < keys.count - 1 { view.confirmingSubtasksOf = nil }
        }
    }

    func browse(_ key: Key, confirming: TodoItem.ID? = nil) async {
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
        case .character("x"), .character(" "): await toggleSelected(confirming: confirming)
        case .character("d"), .delete: await deleteSelected()
        case .character("u"): await undo()
        case .character("U"), .control("r"): await redo()
        case .tab: await cycleFilter()
        case .character("s"): sync()
        case .character("F") where state.lastSync?.heldBack != nil: sync(force: true)
        case .character("r"):
            await reloadAroundSelection()
            await refreshCounts()
        case .character("?"): view.mode = .help
        case .enter where selectedRow != nil:
            if !unfoldSelected() { view.mode = .details }
        case .right: _ = unfoldSelected()
        case .left: foldSelected()
        case .character("q"): wantsToQuit = true
        case .escape:
            if state.error != nil {
                state.dismissError()
            } else if let held = state.lastSync?.heldBack {
                view.dismissedHold = held
            }
        default: break
        }
    }

    func type(_ key: Key) async {
        let before = view.input
        switch key {
        case .character(let character): view.line.insert(character)
        case .backspace: view.line.deleteBackward()
        case .delete, .control("d"): view.line.deleteForward()
        case .left, .control("b"): view.line.moveLeft()
        case .right, .control("f"): view.line.moveRight()
        case .home, .control("a"): view.line.moveToStart()
        case .end, .control("e"): view.line.moveToEnd()
        case .control("w"): view.line.deleteWordBackward()
        case .control("u"): view.line.deleteToStart()
        case .control("k"): view.line.deleteToEnd()
        case .enter:
            await submit()
        case .escape:
            if view.mode == .searching { await search("") }
            view.mode = .browsing
        default: break
        }
        // The list filters on every change of a query's text, not on a cursor move.
        if view.mode == .searching, view.input != before { await search(view.input) }
    }

    func submit() async {
        let text = view.input
        switch view.mode {
        case .searching:
            view.mode = .browsing
            try? await logic.setQuery(text)
        case .adding:
            // An error shows in the footer; the typed text stays to fix.
            guard let (edit, said) = reading(line: text),
                  let item = try? await logic.addTodo(text: edit.text ?? "", fields: edit) else { return }
            view.mode = .browsing
            select(item.id, row: 0)
            await reload(around: .top)
            await refreshCounts()
            // Taskwarrior's words typed (due:fri +home): what they were read as.
            view.message = said
        case .editing(let id):
            let before = rows.first { $0.id == id }?.item.text ?? ""
            guard let (edit, said) = reading(line: text, text: before),
                  (try? await logic.editTodo(idPrefix: id.lowercasedString, edit: edit)) != nil else { return }
            view.mode = .browsing
            await reloadAroundSelection()
            view.message = said
        case .browsing, .help, .details:
            break
        }
    }
}
