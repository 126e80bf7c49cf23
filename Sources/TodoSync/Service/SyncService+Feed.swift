import Foundation
import TodoCore

// MARK: - Reading what changed
// todo-server's change feed, and a CalDAV list's sync-collection, name every
// item changed or deleted since a cursor: a todo they do not name is as its
// base says. A CalDAV server may lose writes it acknowledged (a restore from
// a backup that kept its sync tokens): our writes stay unconfirmed until a
// report names them, and one a report from before it does not name is read again.

extension SyncService {
    /// The snapshot of the changes since `start` (todo-server's feed, a
    /// CalDAV list's sync-collection): a todo the feed does not name is as
    /// its base says.
    func feedSnapshot(since start: String, known: [UUID: RemoteTodo], server: RemoteCapabilities) async throws -> Snapshot {
        var cursor = start
        var items: [String: RemoteTodo] = [:]
        var deleted: Set<String> = []
        var skipped: [String] = []
        var unchanged: Set<String> = []
        while true {
            let page = try await remote.fetchChanges(since: cursor)
            for item in page.items {
                items[item.id] = item
                deleted.remove(item.id)
            }
            for id in page.deleted {
                deleted.insert(id)
                items[id] = nil
            }
            skipped += page.skipped
            unchanged.formUnion(page.unchanged)
            cursor = page.cursor
            if !page.more { break }
        }
        let bases = try await store.bases(remoteIds: Array(items.keys) + Array(deleted) + Array(unchanged))
        var remoteByTodo: [UUID: RemoteTodo] = [:]
        var relevant = Set(try await store.pendingChanges().map(\.todoId))
        for item in items.values {
            let todoId = bases[item.id]?.todoId ?? item.todoId ?? UUID(derivedFrom: configuration.server + "|" + item.id)
            remoteByTodo[todoId] = item
            relevant.insert(todoId)
        }
        for id in deleted {
            if let base = bases[id] { relevant.insert(base.todoId) }
        }
        for (todoId, item) in known {
            remoteByTodo[todoId] = item
            relevant.insert(todoId)
        }
        // Writes awaiting a report (on a server that may lose them): the feed that names them confirms them.
        let unconfirmed = server.keepsEveryWrite ? [] : try await store.unconfirmedWrites()
        // Named at the version written (our own write, named back): confirmed, not read again.
        let seen = Set(unchanged.compactMap { bases[$0]?.todoId })
        var confirmed = unconfirmed.filter { remoteByTodo[$0] != nil || seen.contains($0) }
        // Still planned: a delete of ours named back unchanged was lost, and is sent again.
        relevant.formUnion(confirmed.filter { seen.contains($0) })
        // Named, as removed or as unreadable: not lost.
        let named = Set(deleted.union(skipped).compactMap { bases[$0]?.todoId }).union(seen)
        let lost = try await readAgain(unconfirmed.filter { remoteByTodo[$0] == nil && !named.contains($0) }, into: &remoteByTodo)
        try await resolveRelations(in: &remoteByTodo)
        // Read again now: settled by this sync (and marked again by any write it makes).
        confirmed += lost
        relevant.formUnion(lost)
        // A server may leave out of a report what was created and deleted
        // since its token (RFC 6578): a write of ours another client
        // deleted looks lost too. Sent again once; gone again, it was deleted.
        let resent = try await store.resentWrites()
        let goneAgain = lost.intersection(resent)
        var entries = try await entries(for: relevant) { id, base in
            // Not in the feed: unchanged since the base, unless deleted.
            remoteByTodo[id] ?? (lost.contains(id) ? nil : base.flatMap { deleted.contains($0.remoteId) ? nil : $0.asRemote })
        }
        var sentAgain: Set<UUID> = []
        for index in entries.indices where lost.contains(entries[index].todoId) && entries[index].local != nil {
            let todoId = entries[index].todoId
            // Gone again after it was sent again: deleted there, and here too
            // unless edited since (its base kept, the merge decides).
            guard !goneAgain.contains(todoId) else { continue }
            // The base describes a write the server lost: merged as if never
            // synced. A lost delete keeps its base, so it is sent again.
            entries[index].base = nil
            entries[index].baseInDoubt = true
            sentAgain.insert(todoId)
        }
        // Kept once sent again, though a report names it later: another
        // client deleting it again must not start it over.
        try await store.markResent(adding: sentAgain, removing: goneAgain)
        return Snapshot(entries: entries, server: server, cursor: cursor, skipped: skipped, confirmed: confirmed)
    }

    /// Our writes that a feed from before them does not name: the server
    /// lost them (a restart, a restore from a backup that kept its sync
    /// tokens). Each is read again; a create it lost is gone (sent again),
    /// an update it lost finds the server's older copy, which the merge
    /// settles by edit time. Returns their todos.
    func readAgain(_ unseen: [UUID], into remoteByTodo: inout [UUID: RemoteTodo]) async throws -> Set<UUID> {
        guard !unseen.isEmpty else { return [] }
        let rows = try await store.syncRows(todoIds: unseen)
        var lost = Set(unseen)
        for todoId in unseen {
            guard let base = rows[todoId]?.base else { continue }
            do {
                if case let .done(item?) = try await remote.fetchOne(id: base.remoteId) { remoteByTodo[todoId] = item }
            } catch SyncError.malformed {
                // There, but not readable as a task: left as its base says, as an unreadable item is.
                lost.remove(todoId)
            }
        }
        return lost
    }
}
