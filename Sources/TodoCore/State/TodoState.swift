import Foundation
import Observation

/// What a view shows: the loaded window of the list with its filter and
/// query, the counts, the last error, and how a sync goes.
///
/// Only the transitions below change it, synchronously, on the main actor:
/// when a transition returns, every reader sees the new state and every
/// listener has been told.
@Observable
@MainActor
public final class TodoState {
    public private(set) var query: String = ""
    public internal(set) var error: TodoError?
    /// A sync is running; `syncProgress` says how far it got.
    public internal(set) var isSyncing: Bool = false
    public internal(set) var syncProgress: SyncProgress?
    /// What the last sync in this session did.
    public internal(set) var lastSync: SyncSummary?
    /// When a sync last succeeded in this session.
    public internal(set) var lastSyncedAt: Date?
    /// How a live view's syncing goes (`LiveSync`); nil when it is not live.
    public internal(set) var live: LiveSyncStatus?
    /// Which todos a view of the list shows: pending, done or all.
    public internal(set) var filter: TodoRequest.Status = .pending
    /// The part of the list a view has loaded (see `TodoLogic.loadWindow`).
    public internal(set) var window: TodoWindow = .empty
    /// How many todos are pending and done; nil until loaded.
    public internal(set) var counts: TodoCounts?
    /// The context that is on: the view's list is narrowed to it, and new
    /// todos get its project and tags.
    public internal(set) var context: TodoContext?

    @ObservationIgnored
    private var listeners: [Int: @MainActor (TodoState) -> Void] = [:]
    @ObservationIgnored
    private var nextListenerID = 0

    public init() {}
}

// MARK: - Transitions

extension TodoState {
    /// A new query leaves the loaded window incomplete until a window for it
    /// loads: what it holds that matches is a preview, not the answer.
    public func setQuery(_ query: String) {
        update {
            if $0.query != query { $0.window.isComplete = false }
            $0.query = query
        }
    }

    /// A todo was added: the query is cleared, so the next window shows it.
    public func todoAdded() {
        update {
            $0.query = ""
            $0.error = nil
        }
    }

    /// Replaces the loaded rows of the todos with the same IDs, in place.
    public func updateTodos(_ changed: [TodoItem]) {
        update {
            $0.replace(changed)
            $0.error = nil
        }
    }

    /// Takes todos that were deleted out of the loaded rows.
    public func deleteTodos(_ deleted: [TodoItem]) {
        update {
            $0.remove(ids: Set(deleted.map(\.id)))
            $0.error = nil
        }
    }

    /// The context that is on was read (nil: none). The loaded window was
    /// for another list: it is a preview until a window for this one loads.
    public func contextLoaded(_ context: TodoContext?) {
        update {
            if $0.context != context { $0.window.isComplete = false }
            $0.context = context
        }
    }

    /// Records a failed action or load so a view can show it.
    public func actionFailed(_ error: TodoError) {
        update { $0.error = error }
    }

    public func dismissError() {
        update { $0.error = nil }
    }

    /// The helpers of several transitions, called inside `update`.
    func replace(_ changed: [TodoItem]) {
        let byID = Dictionary(changed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        for index in window.rows.indices {
            if let item = byID[window.rows[index].id] { window.rows[index].item = item }
        }
    }

    func remove(ids: Set<TodoItem.ID>) {
        window.rows.removeAll { ids.contains($0.id) }
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
