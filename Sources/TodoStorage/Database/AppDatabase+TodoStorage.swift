import Foundation
import TodoCore

/// The SQLite database as the core's storage.
extension AppDatabase: TodoStorage {
    nonisolated(nonsending) public func resolve(idPrefixes: [String]) async throws -> [ListedTodo] {
        try resolveListed(idPrefixes: idPrefixes)
    }

    nonisolated(nonsending) public func readTodos(_ request: TodoRequest, _ body: (TodoItem) throws -> Bool) async throws {
        try forEachTodo(request) { try body($0.item) }
    }

    nonisolated(nonsending) public func links() async throws -> [TodoLinks.Node] {
        try linkedTodos()
    }

    nonisolated(nonsending) public func todos(ids: [TodoItem.ID]) async throws -> [TodoItem] {
        try listedTodos(withIDs: ids).map(\.item)
    }

    nonisolated(nonsending) public func subtasks(of ids: [TodoItem.ID]) async throws -> [TodoItem] {
        try subtasks(ofIDs: ids)
    }

    nonisolated(nonsending) public func insert(_ item: TodoItem) async throws {
        try insertTodo(item)
    }

    nonisolated(nonsending) public func update(_ items: [TodoItem]) async throws {
        try updateTodos(items)
    }

    nonisolated(nonsending) public func update(_ items: [TodoItem], addingIfAbsent new: [TodoItem]) async throws {
        try updateTodos(items, addingIfAbsent: new)
    }

    nonisolated(nonsending) public func delete(ids: [TodoItem.ID]) async throws {
        try deleteTodos(ids: ids)
    }

    nonisolated(nonsending) public func undoHistory(limit: Int) async throws -> [TodoUndo] {
        try undoJournal(limit: limit)
    }

    nonisolated(nonsending) public func undoLast(
        force: Bool, after: Int?, at date: Date, dryRun: Bool, progress: @escaping @Sendable (TodoUndo.Progress) -> Void
    ) async throws -> TodoUndo {
        try undoLatest(force: force, after: after, at: date, dryRun: dryRun, progress: progress)
    }

    nonisolated(nonsending) public func redoLast(
        at date: Date, progress: @escaping @Sendable (TodoUndo.Progress) -> Void
    ) async throws -> TodoUndo {
        try redoLatest(at: date, progress: progress)
    }

    nonisolated(nonsending) public func undoPosition() async throws -> Int {
        try latestUndoStep()
    }

    nonisolated(nonsending) public func lastQuery() async throws -> String {
        try setting(SettingKey.lastQuery) ?? ""
    }

    /// Written only when it is new: `todo list --query` run again, the usual
    /// case, reads one row and takes no write lock.
    nonisolated(nonsending) public func setLastQuery(_ query: String) async throws {
        guard try setting(SettingKey.lastQuery) != query else { return }
        try setSetting(SettingKey.lastQuery, to: query)
    }

    nonisolated(nonsending) public func activeContext() async throws -> TodoContext? {
        try savedContexts().active
    }

    /// Read on the database's own queue, not the caller's: a view stays
    /// free to draw and read keys while a long search runs, and cancelling
    /// the task interrupts it.
    nonisolated(nonsending) public func fetchWindow(
        _ request: TodoRequest, around anchor: TodoWindow.Anchor, newer: Int, older: Int, effort: TodoWindow.Effort
    ) async throws -> TodoWindow {
        try await StorageError.wrap(path: path) {
            try await dbWriter.read { db in
                try Self.window(db, request, around: anchor, newer: newer, older: older, effort: effort)
            }
        }
    }

    nonisolated(nonsending) public func nextTodos(_ request: NextRequest) async throws -> [RankedTodo] {
        var ranked: [RankedTodo] = []
        try forEachNext(request) { ranked.append($0); return true }
        return ranked
    }

    nonisolated(nonsending) public func countTodos(at now: Date, in timeZone: TimeZone) async throws -> TodoCounts {
        try counts(at: now, in: timeZone)
    }

    nonisolated(nonsending) public func changeToken() async throws -> Int {
        try dataVersion()
    }
}

/// Names of the rows in the `setting` table.
public enum SettingKey {
    public static let lastQuery = "lastQuery"
    /// The contexts defined, as a JSON array, and the name of the one on.
    public static let contexts = "contexts"
    public static let context = "context"
}

/// The query side (`TodoQueries`): the reads of `AppDatabase+Reads`,
/// `+Links`, `+RawRows`, `+Next`, `+Contexts` and `+Import`, as they are.
extension AppDatabase: TodoQueries {}
