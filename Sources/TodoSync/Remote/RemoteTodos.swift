import Foundation
import TodoCore

/// What a sync asks of the server's side: one collection of todos, read
/// whole or by its changes, written one item at a time (or in batches, where
/// it can: `RemoteCapabilities` says what it can do). `RemoteCollection`
/// speaks it to JSON servers (todo-server and json-server-style ones),
/// `CalDAVCollection` to a task list on a CalDAV server. Every call is one
/// request or a few; its answer is read tolerantly and its failure becomes
/// a `SyncError`.
protocol RemoteTodos: Sendable {
    /// The whole list. Given the digest of the list the last sync left, a
    /// server that can tell it is unchanged may answer `unchanged` instead.
    func fetchAll(unlessDigest stored: String?) async throws -> RemoteCollection.Listing

    /// What changed since `cursor` (a position an earlier listing or page
    /// gave); `SyncError.cursorExpired` when the server cannot say.
    func fetchChanges(since cursor: String) async throws -> RemoteCollection.FeedPage

    /// One item by id; `.missing` if there is none.
    func fetchOne(id: String) async throws -> RemoteCollection.WriteResult

    /// The item a create of this todo made, if it is there.
    func fetchCreated(_ todoId: UUID) async throws -> RemoteCollection.WriteResult

    /// Creates the todo, marked with its UUID, with its dates and edit times.
    func create(
        _ todo: TodoItem, fields: SyncFields, editedAt: FieldTimes, server: RemoteCapabilities
    ) async throws -> RemoteCollection.WriteResult

    /// Many writes in one request and one transaction, their results in
    /// order; nil where the server has no batch route (each write goes alone).
    func batch(_ operations: [RemoteCollection.BatchWrite]) async throws -> [RemoteCollection.WriteResult]?

    /// The item a create of this todo made, looked for by the todo's marker
    /// (`RemoteCapabilities.findsCreatesByMarker`); nil if not found.
    func find(marked todoId: UUID) async throws -> RemoteTodo?

    /// Writes the changed fields, if the item is still at `version`; sent
    /// tags go with `keptTags`, the server's tags no tag of ours can be.
    func update(
        id: String, version: Int?, fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes, local: TodoItem?,
        dates: Bool, keptTags: [String]
    ) async throws -> RemoteCollection.WriteResult

    /// Deletes the item, if it is still at `version`.
    func delete(id: String, version: Int?) async throws -> RemoteCollection.WriteResult

    /// The UIDs the server knows todos by where they are not their ids
    /// (`RemoteTodo.uid`), by todo: a link written to one of them names it so.
    func useUIDs(_ uids: [UUID: String])
}


extension RemoteCollection: RemoteTodos {
    func useUIDs(_ uids: [UUID: String]) {
        uidNames.set(uids)
    }

    /// On todo-server the todo's UUID is its id.
    func fetchCreated(_ todoId: UUID) async throws -> WriteResult {
        try await fetchOne(id: todoId.lowercasedString)
    }
}
