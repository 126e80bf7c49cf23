/// Where the server keeps its todos.
///
/// Every write is atomic: it happens whole or not at all. A write given an
/// `ifMatch` that the todo's current version fails throws 412 and changes nothing.
/// Methods throw `ServerError`, so each failure already knows its HTTP status.
///
/// A repository acts for one account (`AccountID.single` unless scoped):
/// it reads and writes that account's todos and feed only. Scoped to one of
/// the account's lists as well (a shared list's routes), it reads only that
/// list's todos, its feed holds only their changes and their departures
/// (as deletions), a write to a todo on another list is 404, and a write
/// that would put a todo on another list is 422.
extension TodoRepository {
    /// The same store, acting for all of `account`'s todos.
    public func scoped(to account: AccountID) -> Self {
        scoped(to: account, list: nil)
    }

    /// The live todos among `ids`, as resources, in no particular order.
    public func calendarObjects(ids: [String]) async throws -> [CalendarObject] {
        try await calendarObjects(ids: ids, maxBytes: .max).objects
    }
}

public protocol TodoRepository: Sendable {
    /// The same store, acting for `account`, or for its `list` only.
    func scoped(to account: AccountID, list: String?) -> Self
    /// Throws a 503 when the database cannot answer a read; for `GET /health`.
    func checkHealth() async throws
    /// The todos a `GET /todos` selects.
    func list(_ query: TodoQuery) async throws -> TodoList
    func get(id: String) async throws -> StoredTodo?
    /// Creates a todo with the payload's id or a new random one; 409 if the id is taken.
    func create(_ payload: TodoPayload) async throws -> StoredTodo
    /// Replaces every client field of a todo; the id stays.
    func replace(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo
    /// Sets the payload's top-level fields, keeping the others.
    func patch(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo
    /// Deletes a todo, leaving a tombstone for the change feed; returns the todo as it was.
    func delete(id: String, ifMatch: IfMatch?) async throws -> StoredTodo
    /// Applies several writes in one transaction, each on its own: each
    /// succeeds or fails whole (a savepoint each) and gets its own result,
    /// in order. Throws only for what fails the whole batch (the database).
    func batch(_ operations: [BatchOperation]) async throws -> [BatchResult]
    /// What changed after `cursor`, at most `limit` changes; 410 if the
    /// tombstones the client would need have been purged.
    func changes(since cursor: Int, limit: Int?) async throws -> ChangeFeed
    /// What tells the event streams (`GET /todos/events`) that any account's todos changed.
    var changeWatcher: any ChangeWatcher { get }

    // MARK: CalDAV

    /// The account's change counter: where its feed is now (a CalDAV list's ctag and sync token).
    func changeCounter() async throws -> Int
    /// The live todos among the first `consumed` of `ids`, as resources, in
    /// no particular order: all of `ids`, unless their bytes (`byteCount`)
    /// passed `maxBytes`, where it stopped, after at least one.
    func calendarObjects(ids: [String], maxBytes: Int) async throws -> (objects: [CalendarObject], consumed: Int)
    /// A page of at most `limit` resources from after `position` (nil: the
    /// first page): every live todo in creation order (`cursor` nil), or
    /// every todo changed after `cursor` in change order, deleted ones
    /// included; 410 as `changes` says. A todo whose stored text is at its
    /// version (`CalendarObject.servesStoredText`) comes without its JSON
    /// (`{}`): the text says what its fields do.
    func calendarObjects(since cursor: Int?, after position: Int64?, limit: Int) async throws -> CalendarPage
    /// The todo ids of the resources among `names` that a client named.
    func calendarIDs(names: [String]) async throws -> [String: String]
    /// Applies `operation` (a create or a patch of the todo `id`) and keeps
    /// what `render` makes of the todo written as the resource `name`, in
    /// one transaction: 412 and 409 as the operation's own.
    func putCalendarObject(
        name: String, id: String, operation: BatchOperation, render: @escaping @Sendable (StoredTodo) -> String
    ) async throws -> StoredTodo
}
