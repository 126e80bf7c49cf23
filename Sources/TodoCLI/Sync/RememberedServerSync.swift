import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// A sync with the server `todo sync` last used (or $TODO_SERVER), as
/// `todo sync` with no options runs it: with the settings it remembered, on a
/// connection of its own, so the view's reads never wait for the sync's
/// writes, and under the same lock. Deletions the safety rail stops are
/// held back, everything else synced, for the view to ask about.
struct RememberedServerSync: TodoSyncing {
    let db: AppDatabase
    let path: String
    let environment: [String: String]

    init(databasePath: String, environment: [String: String]) throws {
        db = try DatabaseOptions(path: databasePath).openForSync()
        path = databasePath
        self.environment = environment
    }

    func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        let lock = try await SyncSetup.waitForLock(databasePath: path)
        defer { lock.release() }
        var configuration = try await SyncSetup(environment: environment).resolve(store: store).configuration
        // The view asks about the deletions the rail stops, and syncs the rest meanwhile.
        configuration.holdsRailedDeletions = true
        return try await SyncService(store: store, configuration: configuration).sync(dryRun: dryRun, force: force, progress: progress)
    }

    /// Sync's bookkeeping in the database.
    var store: SQLiteSyncStore { SQLiteSyncStore(db) }

    func localChangeMarker() async throws -> Int64? {
        try await store.localChangeMarker()
    }
}
