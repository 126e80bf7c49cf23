import Observation

/// The app's state: the todos on screen, the query, and whether a load is
/// running or failed.
///
/// Only the transitions below change it, synchronously, on the main actor:
/// when a transition returns, every reader sees the new state and every
/// listener has been told.
@Observable
@MainActor
public final class TodoState {
    public private(set) var items: [TodoItem] = []
    public private(set) var query: String = ""
    public private(set) var isLoading: Bool = false
    public internal(set) var error: TodoError?
    /// A sync is running; `syncProgress` says how far it got.
    public internal(set) var isSyncing: Bool = false
    public internal(set) var syncProgress: SyncProgress?
    /// What the last sync in this session did.
    public internal(set) var lastSync: SyncSummary?
    /// Which todos a view of the list shows: pending, done or all.
    public internal(set) var filter: TodoRequest.Status = .pending
    /// The part of the list a view has loaded (see `TodoLogic.loadWindow`).
    public internal(set) var window: TodoWindow = .empty
    /// How many todos are pending and done; nil until loaded.
    public internal(set) var counts: TodoCounts?

    @ObservationIgnored
    private var listeners: [Int: @MainActor (TodoState) -> Void] = [:]
    @ObservationIgnored
    private var nextListenerID = 0

    public init(items: [TodoItem] = [], query: String = "") {
        self.items = items
        self.query = query
    }
}

// MARK: - Transitions

extension TodoState {
    public func fetchTodoRequest() {
        update {
            $0.isLoading = true
            $0.error = nil
        }
    }

    public func fetchTodoSuccess(items: [TodoItem]) {
        update {
            $0.isLoading = false
            $0.error = nil
            $0.items = items
        }
    }

    public func fetchTodoFail(_ error: TodoError) {
        update {
            $0.isLoading = false
            $0.error = error
        }
    }

    /// A new query leaves the loaded window incomplete until a window for it
    /// loads: what it holds that matches is a preview, not the answer.
    public func setQuery(_ query: String) {
        update {
            if $0.query != query { $0.window.isComplete = false }
            $0.query = query
        }
    }

    /// Puts a new todo at the top and clears the query, so the new todo is
    /// visible.
    public func addTodo(_ item: TodoItem) {
        update {
            $0.items.insert(item, at: 0)
            $0.query = ""
            $0.error = nil
        }
    }

    /// The next occurrences completing repeating todos brought: at the top,
    /// with the query left as it is.
    public func occurrencesAdded(_ items: [TodoItem]) {
        guard !items.isEmpty else { return }
        update {
            $0.items.insert(contentsOf: items, at: 0)
            $0.error = nil
        }
    }

    /// Replaces the todos with the same IDs, leaving their place in the list.
    public func updateTodos(_ changed: [TodoItem]) {
        update {
            $0.replace(changed)
            $0.error = nil
        }
    }

    public func removeTodos(ids: Set<TodoItem.ID>) {
        update {
            $0.remove(ids: ids)
            $0.error = nil
        }
    }

    /// Removes todos that were deleted.
    public func deleteTodos(_ deleted: [TodoItem]) {
        update {
            $0.remove(ids: Set(deleted.map(\.id)))
            $0.error = nil
        }
    }

    /// Records a failed action (add, edit, done, delete) so a view can show it.
    public func actionFailed(_ error: TodoError) {
        update { $0.error = error }
    }

    public func dismissError() {
        update { $0.error = nil }
    }

    /// The helpers of several transitions, called inside `update`.
    func replace(_ changed: [TodoItem]) {
        let byID = Dictionary(changed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        items = items.map { byID[$0.id] ?? $0 }
        for index in window.rows.indices {
            if let item = byID[window.rows[index].id] { window.rows[index].item = item }
        }
    }

    func remove(ids: Set<TodoItem.ID>) {
        items.removeAll { ids.contains($0.id) }
        window.rows.removeAll { ids.contains($0.id) }
    }

    /// Puts todos back among the items, newest first (a window reloads to show them).
    func reinsert(_ restored: [TodoItem]) {
        items = (items + restored).sorted { $0.createdAt > $1.createdAt }
    }

    func update(_ change: (TodoState) -> Void) {
        change(self)
        for listener in listeners.sorted(by: { $0.key < $1.key }).map(\.value) {
            listener(self)
        }
    }
}

// MARK: - Listening

extension TodoState {
    /// Calls `listener` after every transition, until the returned subscription
    /// is cancelled or released. Works without SwiftUI: a command line, a test
    /// or any renderer can redraw from here.
    public func onChange(_ listener: @escaping @MainActor (TodoState) -> Void) -> StateSubscription {
        let id = nextListenerID
        nextListenerID += 1
        listeners[id] = listener
        return StateSubscription { [weak self] in
            self?.listeners[id] = nil
        }
    }
}
