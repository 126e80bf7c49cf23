import Foundation
import TodoCore

/// What one fetch found: an entry per todo that may need work.
struct Snapshot: Sendable {
    var entries: [SyncEntry]
    /// What the server can do.
    var server: RemoteCapabilities
    /// The server's position in its history after this fetch.
    var cursor: String?
    var skipped: [String]
    /// The list's digest (a full list only).
    var digest: ListDigest?
    /// The list is the very one the last sync left, and nothing waits here: nothing to do.
    var unchanged = false
    var closesConnections = false
    /// Created todos awaiting a listing that this list shows: confirmed once the sync is done.
    var confirmed: [UUID] = []
}

// MARK: - Fetching

extension SyncService {
    /// Reads the server: the change feed when possible, else the full list.
    /// Nothing local is written here; a failure stops the sync before any change.
    func fetch(known: [UUID: RemoteTodo]) async throws -> Snapshot {
        let settings = try await SyncSettings.load(from: store)
        let sameServer = settings.server == configuration.server
        if let previous = settings.server, !sameServer, try await store.baseCount() > 0 {
            // Another server's ids and history mean nothing here.
            throw SyncError.serverChanged(from: previous, to: configuration.server)
        }
        let server = RemoteCapabilities(configured: configuration.kind, recorded: sameServer ? settings.kind : nil)
        // After a sync that stored what it read and stopped, on a server that
        // may lose edits, the whole list (`markUnfinished`).
        if let server, server.changeFeed, sameServer, let cursor = settings.cursor, !settings.unfinished {
            do {
                return try await feedSnapshot(since: cursor, known: known, server: server)
            } catch SyncError.cursorExpired {
                // Too old a position: resync in full, as the server asks.
            }
        }
        // A digest is only kept for a server without a change feed.
        var stored = sameServer && known.isEmpty && server?.changeFeed == false ? settings.listDigest : nil
        if stored != nil, try await !nothingQueued() { stored = nil }
        let listing = try await remote.fetchAll(unlessDigest: stored)
        let detected = server ?? RemoteCapabilities(firstListing: listing)
        var unchanged = listing.unchanged
        if !unchanged, !detected.changeFeed, sameServer, known.isEmpty {
            unchanged = try await isUnchanged(listing, digest: settings.listDigest)
        }
        if unchanged {
            return Snapshot(
                entries: [], server: detected, cursor: nil, skipped: [], digest: listing.digest, unchanged: true,
                closesConnections: listing.closesConnections
            )
        }
        var snapshot = try await fullSnapshot(listing, server: detected, known: known)
        snapshot.digest = listing.digest
        snapshot.closesConnections = listing.closesConnections
        return snapshot
    }

    /// The list is byte for byte the one the last sync left the bases
    /// holding, and nothing here waits to be pushed: a sync with nothing to
    /// do builds no plan and reads no base.
    func isUnchanged(_ listing: RemoteCollection.Listing, digest stored: String?) async throws -> Bool {
        guard stored == listing.digest.text else { return false }
        return try await nothingQueued()
    }

    /// No local change waits to be pushed, and no create to be found.
    func nothingQueued() async throws -> Bool {
        let pending = try await store.pendingCount()
        let inFlight = try await store.createsInFlight()
        return pending == 0 && inFlight == 0
    }

    func fullSnapshot(_ listing: RemoteCollection.Listing, server: RemoteCapabilities, known: [UUID: RemoteTodo]) async throws -> Snapshot {
        let bases = try await store.allBases()
        let inFlight = try await store.createsInFlight()
        // On a server that may lose edits, a delete of ours keeps its base until a list shows it gone.
        let kept = server.mayLoseEdits && listing.items.isEmpty ? try await store.unconfirmedWrites().count : 0
        if listing.items.isEmpty, !configuration.force, bases.count - kept > 0 || inFlight > 0 {
            throw SyncError.suspiciousEmptyList(lastSeen: bases.count - kept + inFlight)
        }
        var known = known
        if inFlight > 0, server.findsCreatesByMarker {
            try await findCreatesInFlight(missingFrom: listing, into: &known)
        }
        if bases.isEmpty {
            return try await firstSnapshot(listing, server: server, known: known)
        }
        return try await fullSnapshot(listing, server: server, known: known, bases: bases)
    }

    /// The snapshot of a full list against the bases of earlier syncs.
    func fullSnapshot(
        _ listing: RemoteCollection.Listing, server: RemoteCapabilities, known: [UUID: RemoteTodo], bases: [SyncBase]
    ) async throws -> Snapshot {
        let baseByRemote = Dictionary(bases.map { ($0.remoteId, $0) }, uniquingKeysWith: { first, _ in first })
        let baseByTodo = Dictionary(bases.map { ($0.todoId, $0) }, uniquingKeysWith: { first, _ in first })
        var remoteByTodo: [UUID: RemoteTodo] = [:]
        remoteByTodo.reserveCapacity(listing.items.count)
        var skipped = listing.skipped
        for item in listing.items {
            // An item's own marker first: a server that lost items in a
            // restart may give their numbers to new ones.
            let todoId = item.todoId ?? baseByRemote[item.id]?.todoId ?? UUID(derivedFrom: configuration.server + "|" + item.id)
            if let first = remoteByTodo[todoId] {
                // Two copies of one todo (another client's doing): follow the one the base names.
                let keep = baseByTodo[todoId]?.remoteId == item.id ? item : first
                skipped.append("\(keep.id == item.id ? first.id : item.id) (a second copy of \(keep.id))")
                remoteByTodo[todoId] = keep
            } else {
                remoteByTodo[todoId] = item
            }
        }
        try await resolveRelations(in: &remoteByTodo)
        var relevant = Set(try await store.pendingChanges().map(\.todoId))
        relevant.reserveCapacity(remoteByTodo.count)
        for (todoId, item) in remoteByTodo where baseByTodo[todoId].map({ !$0.matches(item) }) ?? true {
            relevant.insert(todoId)
        }
        let unreadable = Set(listing.skipped)
        var absent: [SyncBase] = []
        // Known by another id now: created again after the server lost it.
        var renumbered: Set<UUID> = []
        // Bases standing in for items the list did not show readably: not seen.
        var standIns: Set<UUID> = []
        for base in bases {
            if let item = remoteByTodo[base.todoId] {
                if item.id != base.remoteId { renumbered.insert(base.todoId) }
                continue
            }
            if listing.hasUnidentified || unreadable.contains(base.remoteId) {
                remoteByTodo[base.todoId] = base.asRemote // unreadable is not deleted
                standIns.insert(base.todoId)
            } else {
                absent.append(base)
                relevant.insert(base.todoId)
            }
        }
        try await confirmGone(absent)
        for (todoId, item) in known where remoteByTodo[todoId] == nil {
            remoteByTodo[todoId] = item
            relevant.insert(todoId)
        }
        // Items learnt while running name their links as the list's do.
        if !known.isEmpty { try await resolveRelations(in: &remoteByTodo) }
        relevant.formUnion(renumbered)
        // Every write no list showed yet; of them, the creates a server may have lost.
        let unconfirmed = bases.isEmpty ? [] : try await store.unconfirmedWrites()
        // The creates among them, with when each was sent and answered.
        let creates = unconfirmed.isEmpty ? [] : try await store.unconfirmedCreates()
        let confirmed = unconfirmed.filter { remoteByTodo[$0] != nil && !standIns.contains($0) }
        if server.mayLoseEdits { relevant.formUnion(confirmed) }
        var entries = try await entries(for: relevant) { id, _ in remoteByTodo[id] }
        for index in entries.indices where renumbered.contains(entries[index].todoId) {
            // The base describes an item that is gone: merged as if never synced.
            entries[index].base = nil
        }
        let unsure = server.mayLoseEdits ? Self.unsureWrites(entries, confirmed: Set(confirmed), bases: baseByTodo) : []
        // Ours as sent: the same item, and on a server that may lose edits the very version written.
        let keptAsSent = confirmed.filter { remoteByTodo[$0]?.id == baseByTodo[$0]?.remoteId && !unsure.contains($0) }
        // A create of ours whose number the list now gives another todo: the
        // server lost it in a restart and numbered on (json-server 0.17),
        // whatever a later create of ours that another replica sent again
        // under its own old number seems to say.
        let listedIds = Set(listing.items.lazy.map(\.id))
        let renumberedAway = Set(creates.lazy.map(\.todoId).filter { todoId in
            remoteByTodo[todoId] == nil && baseByTodo[todoId].map { listedIds.contains($0.remoteId) } ?? false
        })
        let lost = Self.lostCreates(unconfirmed: creates, keptAsSent: Set(keptAsSent)).union(renumberedAway)
        for index in entries.indices where lost.contains(entries[index].todoId) && entries[index].local != nil
            || unsure.contains(entries[index].todoId) {
            // Sent again, or merged, as if never synced.
            entries[index].base = nil
            entries[index].baseInDoubt = true
        }
        return Snapshot(entries: entries, server: server, cursor: listing.cursor, skipped: skipped, confirmed: confirmed)
    }

    /// Our writes to a CalDAV list that its full listing (its sync token
    /// lost, or it has only a CTag) shows otherwise than we wrote them: an
    /// update or create at another version, a delete still there. The server
    /// lost them, or another client changed them since; which, the list
    /// cannot say. Merged as if never synced, the newest edit of each field
    /// wins either way, and a delete still shown is taken back.
    static func unsureWrites(_ entries: [SyncEntry], confirmed: Set<UUID>, bases: [UUID: SyncBase]) -> Set<UUID> {
        Set(entries.lazy.filter { entry in
            guard confirmed.contains(entry.todoId) else { return false }
            // A delete here since (queued) is not ours to take back: the merge decides.
            if entry.local == nil { return entry.pendingRev == nil }
            return entry.remote?.version != bases[entry.todoId]?.remoteVersion
        }.map(\.todoId))
    }

    /// The snapshot of a full list when nothing was synced before (no base):
    /// the same entries as `fullSnapshot(_:server:known:bases:)` gives with no
    /// bases, built by sorting the items once instead of hashing every id into
    /// dictionaries and sets: this is the snapshot of a first sync of 100,000 todos.
    func firstSnapshot(_ listing: RemoteCollection.Listing, server: RemoteCapabilities, known: [UUID: RemoteTodo]) async throws -> Snapshot {
        var items = listing.items
        var sorted: [(key: UUIDOrderKey, todoId: UUID, index: Int)] = []
        sorted.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let todoId = item.todoId ?? UUID(derivedFrom: configuration.server + "|" + item.id)
            sorted.append((todoId.orderKey, todoId, index))
        }
        // Copies of one todo end up side by side, the first in list order first.
        sorted.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        // Without a base, the first copy of a todo in the list is the one
        // followed; the others are dropped, in place.
        var copies: [(index: Int, note: String)] = []
        var kept = 0
        for position in sorted.indices {
            let entry = sorted[position]
            if kept > 0, sorted[kept - 1].key == entry.key {
                copies.append((entry.index, "\(items[entry.index].id) (a second copy of \(items[sorted[kept - 1].index].id))"))
            } else {
                sorted[kept] = entry
                kept += 1
            }
        }
        sorted.removeLast(sorted.count - kept)
        if items.contains(where: { !$0.relations.isEmpty }) {
            var byTodo = Dictionary(sorted.map { ($0.todoId, items[$0.index]) }, uniquingKeysWith: { first, _ in first })
            try await resolveRelations(in: &byTodo)
            for entry in sorted { items[entry.index] = byTodo[entry.todoId] ?? items[entry.index] }
        }
        let skipped = listing.skipped + copies.sorted { $0.index < $1.index }.map(\.note)
        // Todos the list lacks: queued here (maybe never pushed), or learnt while running.
        let pending = try await store.pendingChanges()
        var extra: [UUID: RemoteTodo?] = [:]
        extra.reserveCapacity(pending.count + known.count)
        for (todoId, _) in pending { extra[todoId] = .some(nil) }
        for (todoId, item) in known { extra[todoId] = item }
        let listed = Set(extra.isEmpty ? [] : sorted.map(\.todoId))
        let others = extra.filter { !listed.contains($0.key) }
            .map { (key: $0.key.orderKey, todoId: $0.key, item: $0.value) }
            .sorted { $0.key < $1.key }
        // Both runs in id order, merged; an item is named by its place (an
        // item of the list, else one of the others), not copied.
        var ordered: [(todoId: UUID, item: Int)] = []
        ordered.reserveCapacity(sorted.count + others.count)
        var next = others.startIndex
        for entry in sorted {
            while next < others.endIndex, others[next].key < entry.key {
                ordered.append((others[next].todoId, -1 - next))
                next += 1
            }
            ordered.append((entry.todoId, entry.index))
        }
        ordered += others.indices[next...].map { (others[$0].todoId, -1 - $0) }
        let rows = try await store.syncRows(todoIds: ordered.map(\.todoId))
        let entries = ordered.map { todoId, item in
            SyncEntry(todoId, row: rows[todoId], remote: item >= 0 ? items[item] : others[-1 - item].item)
        }
        return Snapshot(entries: entries, server: server, cursor: listing.cursor, skipped: skipped)
    }

    /// One entry per todo, in a stable order, with its local side read now.
    func entries(for ids: Set<UUID>, remote: (UUID, SyncBase?) -> RemoteTodo?) async throws -> [SyncEntry] {
        // In the order of the text form, which is that of the bytes, read as
        // two big-endian integers: no text formed to sort 100,000 ids.
        let ordered = ids.map { (key: $0.orderKey, id: $0) }.sorted { $0.key < $1.key }.map(\.id)
        let rows = try await store.syncRows(todoIds: ordered)
        return ordered.map { id in SyncEntry(id, row: rows[id], remote: remote(id, rows[id]?.base)) }
    }
}

extension SyncEntry {
    /// The entry of a todo as the store holds it (`row`; nil: nothing here) and the server `remote`.
    init(_ todoId: UUID, row: SyncRow?, remote: RemoteTodo?) {
        self.init(todoId: todoId, base: row?.base, local: row?.local, remote: remote, pendingRev: row?.pendingRev)
        if let sent = row?.setsInFlight {
            // With the base the write went out over, before any doubt removes it.
            inFlight = InFlight(sent: sent, base: row?.base.map { SetsInFlight(tags: $0.fields.tags, blockedBy: $0.fields.blockedBy) })
        }
    }
}

extension SyncBase {
    /// The server's copy as this base recorded it.
    var asRemote: RemoteTodo {
        // It carried our marker: it holds what `todo` writes.
        RemoteTodo(
            id: remoteId, fields: fields, clientId: todoId, createdAt: createdAt, completedAt: completedAt,
            editedAt: editedAt, version: remoteVersion, foreignTags: foreignTags, uid: remoteUID
        )
    }

    func matches(_ item: RemoteTodo) -> Bool {
        remoteId == item.id && fields == item.fields && remoteVersion == item.version && editedAt == item.editedAt
            && createdAt == item.createdAt && completedAt == item.completedAt && foreignTags == item.foreignTags
            && remoteUID == item.uid
    }
}
