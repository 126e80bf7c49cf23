import Foundation

/// Where todos are kept. The core only talks to storage through this protocol,
/// so it runs unchanged over SQLite, an in-memory fake, or anything else.
public protocol TodoStorage: Sendable {
    /// The todos whose IDs start with each prefix, in the same order, each
    /// with the length of its short ID.
    /// Throws `TodoError.notFound` or `.ambiguousID` for a prefix that does not
    /// name exactly one todo.
    nonisolated(nonsending) func resolve(idPrefixes: [String]) async throws -> [ListedTodo]

    /// Calls `body` with each todo `request` selects, in its order, reading
    /// them one at a time; `body` returns false to stop.
    nonisolated(nonsending) func readTodos(_ request: TodoRequest, _ body: (TodoItem) throws -> Bool) async throws

    /// The todos `request` ranks first, most urgent first, as
    /// `selectNextTodos` ranks them (`todo next`).
    nonisolated(nonsending) func nextTodos(_ request: NextRequest) async throws -> [RankedTodo]

    /// The links of every todo that has a parent or blockers (`TodoLinks`),
    /// done ones too: what a new link is checked against for cycles.
    nonisolated(nonsending) func links() async throws -> [TodoLinks.Node]

    /// The todos `ids` names that exist, in no particular order: a blocked
    /// todo's blockers, to say which are still open.
    nonisolated(nonsending) func todos(ids: [TodoItem.ID]) async throws -> [TodoItem]

    /// The subtasks of the todos `ids` names, theirs, and so on down, each
    /// once, done ones too; parents before their subtasks.
    nonisolated(nonsending) func subtasks(of ids: [TodoItem.ID]) async throws -> [TodoItem]

    /// Stores a new todo.
    nonisolated(nonsending) func insert(_ item: TodoItem) async throws

    /// Stores new values for existing todos, all or none.
    /// Throws `TodoError.notFound` if one of them no longer exists.
    nonisolated(nonsending) func update(_ items: [TodoItem]) async throws

    /// Stores new values for existing todos and adds `new` todos, all in one
    /// transaction; a new todo whose ID exists already is left as it is (the
    /// next occurrence of a repeating todo, created once by whoever gets there first).
    /// Throws `TodoError.notFound` if one of `items` no longer exists.
    nonisolated(nonsending) func update(_ items: [TodoItem], addingIfAbsent new: [TodoItem]) async throws

    /// Deletes todos, all or none.
    /// Throws `TodoError.notFound` if one of them no longer exists.
    nonisolated(nonsending) func delete(ids: [TodoItem.ID]) async throws

    // MARK: Undo

    /// The changes made here that `undoLast` would take back, the latest
    /// first, at most `limit` of them.
    nonisolated(nonsending) func undoHistory(limit: Int) async throws -> [TodoUndo]

    /// Takes back the latest change made here, all or nothing: each todo it
    /// touched is written back as it was before (`TodoUndo.Change.restoring`),
    /// one it added is deleted. The change is returned, with the todos as
    /// written back, and stays in the journal for `redoLast`. Only a change
    /// numbered above `after` is taken back (`.nothingToUndoInView` if the
    /// latest is older). Throws `TodoError.nothingToUndo` if none is left, and
    /// `.undoConflict`, changing nothing, if a todo it touched was changed
    /// since by something not journaled (a sync), unless `force`. A dry run
    /// answers exactly that (checks, and the todos as they would be written
    /// back) and changes nothing. `progress` hears how far it got, every
    /// thousand rows or so.
    nonisolated(nonsending) func undoLast(
        force: Bool, after: Int?, at date: Date, dryRun: Bool, progress: @escaping @Sendable (TodoUndo.Progress) -> Void
    ) async throws -> TodoUndo

    /// Brings back the change undo took back last, as `undoLast` would put
    /// back its "after"; `.nothingToRedo` if there is none (a change made
    /// since drops them), `.undoConflict` if a todo it touched changed since.
    nonisolated(nonsending) func redoLast(at date: Date, progress: @escaping @Sendable (TodoUndo.Progress) -> Void) async throws -> TodoUndo

    /// The number of the latest change in the journal (0 for none): a view
    /// notes it when it opens, to undo only what was made since.
    nonisolated(nonsending) func undoPosition() async throws -> Int

    /// The query the user last searched for, or "" if none.
    nonisolated(nonsending) func lastQuery() async throws -> String

    nonisolated(nonsending) func setLastQuery(_ query: String) async throws

    /// The context that is on (`todo context NAME`), if any.
    nonisolated(nonsending) func activeContext() async throws -> TodoContext?

    // MARK: For a view that stays open

    /// Part of the list a request selects (its status and query; its limit is
    /// ignored): up to `newer` todos before `anchor`, then up to `older` todos
    /// from it on. A view of a long list loads only what it shows this way, so
    /// the cost does not grow with the list. With `.quick` effort it may
    /// stop early and answer an incomplete window (`isComplete` false). A
    /// cancelled task's load stops and throws `CancellationError`.
    nonisolated(nonsending) func fetchWindow(
        _ request: TodoRequest, around anchor: TodoWindow.Anchor, newer: Int, older: Int, effort: TodoWindow.Effort
    ) async throws -> TodoWindow

    /// How many todos the lists list at `now`, and how many wait
    /// (`selectCounts` counts the same).
    nonisolated(nonsending) func countTodos(at now: Date, in timeZone: TimeZone) async throws -> TodoCounts

    /// A number that changes whenever another process (or connection) commits
    /// a change, and only then: cheap enough to ask every second.
    nonisolated(nonsending) func changeToken() async throws -> Int
}
