import Foundation
import TodoCore

// MARK: - Links by the names a server knows tasks by
// A CalDAV app names a task by its UID (`1001`, `task-7@host`), and a
// todo-server task a CalDAV app made has that UID as its id: links to such
// tasks are resolved to todos when read, and written with those names.

extension SyncService {
    /// Links CalDAV tasks hold to others by UIDs that are no UUIDs, as
    /// todos: through the UIDs of the items read now and those the bases
    /// recorded (`RemoteRelations.resolve`).
    func resolveRelations(in items: inout [UUID: RemoteTodo]) async throws {
        guard items.values.contains(where: { !$0.relations.isEmpty }) else { return }
        let known = try await store.remoteUIDs()
        for (todoId, item) in RemoteRelations.resolve(items, known: known) { items[todoId] = item }
    }

    /// Tells the server's side the names (UIDs, ids) its items have where
    /// they are not their todos' ids, recorded or read now: a link written
    /// to one of them names it as the other apps know it.
    func nameLinkedTasks(_ snapshot: Snapshot) async throws {
        var names: [UUID: String] = [:]
        for (uid, todoId) in try await store.remoteUIDs() { names[todoId] = uid }
        for entry in snapshot.entries {
            if let uid = entry.remote?.uid { names[entry.todoId] = uid }
        }
        remote.useUIDs(names)
    }
}
