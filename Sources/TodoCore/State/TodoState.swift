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

    public func setQuery(_ query: String) {
        update { $0.query = query }
    }

    /// Puts a new todo at the top and clears the query, so the new todo is visible.
    public func addTodo(_ item: TodoItem) {
        update {
            $0.items.insert(item, at: 0)
            $0.query = ""
            $0.error = nil
        }
    }

    /// Replaces the todos with the same IDs, leaving their place in the list.
    public func updateTodos(_ changed: [TodoItem]) {
        let byID = Dictionary(changed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        update {
            $0.items = $0.items.map { byID[$0.id] ?? $0 }
            $0.error = nil
        }
    }

    public func removeTodos(ids: Set<TodoItem.ID>) {
        update {
            $0.items.removeAll { ids.contains($0.id) }
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
