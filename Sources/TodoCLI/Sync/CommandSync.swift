import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// A sync as `todo sync`'s options say, for one run or for each of `--watch`'s.
struct CommandSync: TodoSyncing {
    let command: SyncCommand
    let db: AppDatabase
    let setup: SyncSetup
    /// Print each retry on standard error, over one line.
    let showsRetries: Bool

    func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        let command = self.command
        let (settings, config) = try await setup.resolve(store: store) { settings in command.adjust(&settings) }
        let url = config.server
        let showsRetries = self.showsRetries
        let transport = RetryingTransport(AsyncHTTPTransport(patient: config.kind == .calDAV), onRetry: { retry in
            guard showsRetries else { return }
            let seconds = Double(retry.delay.components.seconds) + Double(retry.delay.components.attoseconds) / 1e18
            let line = "\r\(url): \(retry.cause); retrying in \(String(format: "%.1f", seconds)) s (attempt \(retry.attempt + 1))\u{1B}[K"
            FileHandle.standardError.write(Data(line.utf8))
        })
        let summary = try await SyncService(store: store, configuration: config, transport: transport).sync(dryRun: dryRun, force: force, progress: progress)
        if !dryRun {
            try await settings.save(to: store)
            // A token typed once is remembered for this server, outside the database.
            if let token = command.token { try setup.credentials.remember(token, for: url) }
            // So is a CalDAV account, for the server (as --caldav-lists does).
            if let login = config.login, let list = try? CalDAVDiscovery.serverURL(url) {
                try setup.credentials.remember(login, for: CalDAVDiscovery.origin(of: list))
            }
        }
        return summary
    }

    /// Sync's bookkeeping in the database.
    var store: SQLiteSyncStore { SQLiteSyncStore(db) }

    func localChangeMarker() async throws -> Int64? {
        try await store.localChangeMarker()
    }
}
