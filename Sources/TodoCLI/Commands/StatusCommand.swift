import ArgumentParser
import Foundation
import TodoCore
import TodoSync

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show pending local changes and the last sync.",
        discussion: """
            Prints how many todos changed here since the last sync, which server the \
            last sync used, when it ran and what it did. --conflicts lists the \
            conflicts syncs settled, newest first.

            Examples:
              todo status
              todo status --conflicts
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "List the conflicts past syncs settled, newest first.")
    var conflicts = false

    @Option(help: ArgumentHelp("How many conflicts to list.", valueName: "n"))
    var limit = 50

    @MainActor
    mutating func run() async throws {
        let db = try database.openForSync(reading: true)
        let logic = TodoLogic(over: db)
        try await logic.loadCounts()
        let counts = logic.state.counts ?? TodoCounts(pending: 0, done: 0)
        // As the lists list them: waiting todos apart, as todo list --waiting lists them.
        print("\(counts.pending) pending, " + (counts.waiting > 0 ? "\(counts.waiting) waiting, " : "") + "\(counts.done) done")
        let sync = SQLiteSyncStore(db)
        let queued = try await sync.pendingCount()
        print("\(queued) local change\(queued == 1 ? "" : "s") not yet synced")
        let settings = try await SyncSettings.load(from: sync)
        if let server = settings.server {
            print("Server: \(server) (\(settings.kind?.rawValue ?? "unknown kind"))")
            print("Last sync: \(settings.lastSyncAt ?? "never")")
            if let line = settings.lastSummary { print("  \(line)") }
            if let paging = settings.paging { print("Paging: \(paging)") }
        } else {
            print("Never synced: todo sync --server URL sets a server")
        }
        if conflicts {
            let history = try await sync.conflictHistory(limit: limit)
            print(history.isEmpty ? "No conflicts" : "Conflicts, newest first:")
            for conflict in history {
                print("\(ISO8601.string(from: conflict.at))  \(conflict.line)")
            }
        }
    }
}
