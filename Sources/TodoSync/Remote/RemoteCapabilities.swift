import Foundation

/// What a server can do, as a sync needs to know it. The sync service asks
/// these, never which kind of server it speaks to: the kind is found once
/// (configured, recorded by the last sync, or read from the first listing)
/// and only recorded, so the next sync knows these without asking again.
struct RemoteCapabilities: Sendable, Hashable {
    /// What the server was found to be, as the sync settings record it.
    let kind: ServerKind

    /// It says what changed since a position it gave: todo-server's change
    /// feed, a CalDAV list's sync token or CTag. Without one, the whole list
    /// is read every time, and the digest the last sync left tells at once
    /// that nothing changed there.
    var changeFeed: Bool { kind != .jsonServer }

    /// It takes many writes in one request and one transaction (`POST /todos/_batch`).
    var batchWrites: Bool { kind == .todoServer }

    /// A create keeps the id the client gave it: the todo's UUID.
    var keepsClientIDs: Bool { kind == .todoServer }

    /// Its feed keeps every write it acknowledged, deletions too. Without
    /// that, a create counts as done only once a listing shows it, and a
    /// create the server lost (json-server restarted, a backup restored) is
    /// sent again.
    var keepsEveryWrite: Bool { kind == .todoServer }

    /// It may lose an update or a delete it acknowledged, and say nothing of
    /// it in its feed (a CalDAV server restored from a backup that kept its
    /// sync tokens). Each such write waits for a listing that names it, its
    /// base kept until then; a sync that stopped after writing reads the
    /// whole list next time.
    var mayLoseEdits: Bool { kind == .calDAV }

    /// A create that got no clear answer is looked for by its marker when
    /// the list does not show it (json-server's `?clientId=…` filter): the
    /// list may be paged, and the server numbers its own ids.
    var findsCreatesByMarker: Bool { kind == .jsonServer }
}

extension RemoteCapabilities {
    /// What is known before the list is read: the configured kind, or the
    /// one the last sync with this server recorded; nil for a server never
    /// synced with.
    init?(configured: ServerKind?, recorded: ServerKind?) {
        guard let kind = configured ?? recorded else { return nil }
        self.kind = kind
    }

    /// What a server never synced with showed in its first listing: a JSON
    /// server that gives a position in its history is todo-server.
    init(firstListing listing: RemoteCollection.Listing) {
        kind = listing.cursor != nil ? .todoServer : .jsonServer
    }
}

extension SyncConfiguration {
    /// What speaks to the server this configuration names: a CalDAV task
    /// list, or a JSON collection. `store` gives the versions the bases hold,
    /// which a CalDAV list's listing compares with its ETags.
    func remote(
        transport: (any HTTPTransport)? = nil, now: @escaping @Sendable () -> Date = { Date() }, store: (any SyncStore)? = nil
    ) -> any RemoteTodos {
        guard kind == .calDAV else {
            return RemoteCollection(configuration: self, transport: transport ?? RetryingTransport(AsyncHTTPTransport()))
        }
        // A CalDAV server may take a while over a large list: reads wait up to a minute.
        let transport = transport ?? RetryingTransport(AsyncHTTPTransport(patient: true))
        return CalDAVCollection(configuration: self, transport: transport, now: now) { ids in
            try await store?.bases(remoteIds: ids).compactMapValues(\.remoteVersion) ?? [:]
        }
    }
}
