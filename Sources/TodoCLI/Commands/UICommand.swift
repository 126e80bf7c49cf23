import ArgumentParser
import FileChanges
import Foundation
import TodoCore
import TodoSync
import TodoTerminal
import TodoUI

struct UICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "A live, full-screen view of the todos.",
        discussion: """
            Takes over the terminal: the todos newest first, moved through with j/k or the \
            arrows; a adds, e edits, x marks done, d deletes, u undoes, / searches as you \
            type, Tab shows pending, done or all, s syncs at once, q quits; ? lists every \
            key. Changes made by other todo commands appear as they are made.
            With a server remembered (the last todo sync's, or $TODO_SERVER), the view \
            stays synced by itself: a change made here is sent within a second, and one \
            made elsewhere shows as soon as todo-server announces it (another server is \
            asked every --every seconds, less often while nothing changes). The header \
            says live, auto-sync, offline or sync failed, and when the last sync ended; \
            offline is retried by itself. A sync that would delete most of the synced \
            todos here holds those deletions back, syncs the rest and asks: F makes them \
            (as todo sync --force), Esc leaves them. --no-live, or TODO_LIVE=off in the environment, \
            turns this off: then s syncs. Needs a terminal on standard input and output \
            (not TERM=dumb).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Do not sync by itself (also: TODO_LIVE=off); s still syncs.")
    var noLive = false

    @Option(help: ArgumentHelp("Seconds between syncs with a server that does not announce its changes (default: 30; longer while nothing changes, at most 300).", valueName: "seconds"))
    var every: Int?

    func validate() throws {
        if let every, every < 1 || every > 86_400 {
            throw ValidationError("--every takes seconds from 1 to 86400, got \(every)")
        }
        if let value = ProcessInfo.processInfo.environment["TODO_LIVE"], Self.liveSetting(value) == nil {
            throw ValidationError("TODO_LIVE must be on or off, not \(value.debugDescription)")
        }
        if noLive, every != nil {
            throw ValidationError("--every sets how often a live view syncs, and --no-live turns that off: give one")
        }
    }

    /// The environment variable TODO_LIVE read as a choice; nil when it is neither on nor off.
    static func liveSetting(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "1", "yes", "true", "": true
        case "off", "0", "no", "false": false
        default: nil
        }
    }

    @MainActor
    mutating func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let device: TerminalDevice
        do {
            device = try TerminalDevice(environment: environment)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(64)
        }
        let path = database.resolvedPath
        let db = try database.openForSync()
        let lastSyncAt = try await SyncSettings.load(from: SQLiteSyncStore(db)).lastSyncAt
        let todos: any TodoDatabase = db
        let logic = TodoLogic(over: todos)
        let makeSyncer: @MainActor () throws -> any TodoSyncing = { try RememberedServerSync(databasePath: path, environment: environment) }
        var live: LiveSync?
        if !noLive, Self.liveSetting(environment["TODO_LIVE"] ?? "") ?? true, !todos.isReadOnly, let syncer = try? makeSyncer() {
            // No server named or remembered: nothing to stay synced with.
            live = try? await LiveSyncSetup.make(
                logic: logic, syncer: syncer, db: db, setup: SyncSetup(environment: environment), every: .seconds(every ?? 30)
            )
        }
        let app = TodoUIApp(
            logic: logic, device: device,
            usesColor: (environment["NO_COLOR"] ?? "").isEmpty,
            lastSyncAt: lastSyncAt,
            makeSyncer: makeSyncer,
            live: live,
            storageChanges: FileChangeSignal(databasePath: path).changes()
        )
        await app.run()
    }
}
