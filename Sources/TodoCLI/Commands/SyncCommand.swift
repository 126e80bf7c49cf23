import ArgumentParser
import Foundation
import TodoCore
import TodoStorage
import TodoSync

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync todos with a JSON server, both ways.",
        discussion: """
            Pushes the adds, edits, done/undone and deletes made here since the last sync, \
            and pulls the server's. Fields changed on one side only merge; the same field \
            changed on both sides is a conflict: the most recent change wins unless --prefer \
            says otherwise, and every conflict is printed and kept (todo status --conflicts). \
            A todo deleted on one side and edited on the other is kept, edited.
            The server (--server, else $TODO_SERVER, else the one last synced with) is \
            remembered after the first successful sync. todo-server is synced through its \
            change feed; any other json-server-style server through its full list.

            Examples:
              todo sync --server http://127.0.0.1:3000
              todo sync --dry-run
              todo sync --prefer local
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The server's base URL (default: $TODO_SERVER, else the last one).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Bearer token for the server (default: $TODO_TOKEN).", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Who wins a conflict this run: newest, local or remote.", valueName: "side"))
    var prefer: String = "newest"

    @Flag(help: "Print the plan (pulls, pushes, deletions, conflicts) and change nothing.")
    var dryRun = false

    @Flag(help: "Allow a sync that deletes every synced todo here, or follows an empty server list.")
    var force = false

    @Option(help: ArgumentHelp("auto, todo-server or json-server.", valueName: "kind"))
    var serverKind: String = "auto"

    @Option(help: ArgumentHelp("The server's field for the text (default: title, or the last one used).", valueName: "name"))
    var titleField: String?

    @Option(help: ArgumentHelp("The server's field for done (default: completed, or the last one used).", valueName: "name"))
    var completedField: String?

    func validate() throws {
        guard serverKind == "auto" || ServerKind(rawValue: serverKind) != nil else {
            throw ValidationError("--server-kind must be auto, todo-server or json-server")
        }
        guard ConflictPreference(rawValue: prefer) != nil else {
            throw ValidationError("--prefer must be newest, local or remote")
        }
    }

    @MainActor
    mutating func run() async throws {
        let path = database.resolvedPath
        let db = try database.open()
        let lock = try SyncLock.acquire(path: path + ".sync-lock")
        defer { lock.release() }
        let environment = ProcessInfo.processInfo.environment
        let stored = { (key: String) in try db.setting(key) }
        guard let url = try server ?? environment["TODO_SERVER"] ?? stored(SyncSettingKey.server) else {
            throw SyncError.noServer
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw SyncError.invalidServerURL(url)
        }
        let names = FieldNames(
            title: try titleField ?? stored(SyncSettingKey.titleField) ?? "title",
            completed: try completedField ?? stored(SyncSettingKey.completedField) ?? "completed"
        )
        let config = SyncConfiguration(
            server: url, token: token ?? environment["TODO_TOKEN"], kind: ServerKind(rawValue: serverKind),
            names: names, prefer: ConflictPreference(rawValue: prefer) ?? .newest, force: force
        )
        let logic = TodoLogic(state: TodoState(), storage: db)
        let showsProgress = isatty(STDERR_FILENO) == 1 && !dryRun
        let subscription = logic.state.onChange { state in
            if showsProgress, let progress = state.syncProgress, progress.total > 20 {
                FileHandle.standardError.write(Data("\rSyncing \(progress.done)/\(progress.total)".utf8))
            }
        }
        defer { subscription.cancel() }
        let summary = try await logic.sync(with: SyncService(store: db, configuration: config), dryRun: dryRun)
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if !dryRun {
            try db.setSetting(SyncSettingKey.titleField, to: names.title)
            try db.setSetting(SyncSettingKey.completedField, to: names.completed)
        }
        for line in dryRun ? summary.steps : summary.conflicts.map(\.line) {
            print(line)
        }
        for skipped in summary.skipped {
            FileHandle.standardError.write(Data("warning: skipped an unreadable server item: \(skipped)\n".utf8))
        }
        print(summary.line)
    }
}

extension SyncConflict {
    /// One line per conflict, as sync prints it and status lists it.
    var line: String {
        let id = String(todoId.uuidString.lowercased().prefix(8))
        return "conflict on \(id) \(field): here \"\(localValue)\", server \"\(remoteValue)\": \(winner.rawValue) kept"
    }
}
