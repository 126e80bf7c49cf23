import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// A live sync (`LiveSync`) for `todo ui` and `todo sync --watch`: listening
/// to todo-server's announcements, or polling a json-server-style server,
/// whose kind the last sync recorded (a server not synced yet is asked for
/// its announcements, and polled if it has none).
enum LiveSyncSetup {
    /// Throws as `SyncSetup.resolve` does: no server named or remembered, or not an http(s) URL.
    @MainActor
    static func make(
        logic: TodoLogic, syncer: any TodoSyncing, db: AppDatabase, setup: SyncSetup, every: Duration,
        adjust: @escaping @Sendable (inout SyncSettings) -> Void = { _ in }
    ) async throws -> LiveSync {
        let (settings, configuration) = try await setup.resolve(store: SQLiteSyncStore(db), adjust: adjust)
        let kind = setup.kind ?? (settings.server == configuration.server ? settings.kind : nil)
        // Only todo-server announces its changes; the others are polled.
        let announcer = kind == .jsonServer || configuration.kind == .calDAV ? nil : ServerAnnouncements(
            configuration: configuration, cursor: settings.server == configuration.server ? settings.cursor : nil
        )
        return LiveSync(logic: logic, syncer: syncer, announcer: announcer, timing: LiveSync.Timing(every: every))
    }
}

/// A sync that holds the database's sync lock while it runs: a sync another
/// `todo` started is waited for, never run beside.
struct LockedSync: TodoSyncing {
    let inner: any TodoSyncing
    let databasePath: String

    init(_ inner: any TodoSyncing, databasePath: String) {
        self.inner = inner
        self.databasePath = databasePath
    }

    func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        let lock = try await SyncSetup.waitForLock(databasePath: databasePath)
        defer { lock.release() }
        return try await inner.sync(dryRun: dryRun, force: force, progress: progress)
    }

    func localChangeMarker() async throws -> Int64? {
        try await inner.localChangeMarker()
    }
}
