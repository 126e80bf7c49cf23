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
            changed on both sides is a conflict: the edit made last wins (by when it was \
            made on its machine) unless --prefer says otherwise, and every conflict is \
            printed and kept (todo status --conflicts). A todo deleted on one side and \
            edited on the other is kept, edited. The text, done mark, due date, priority, \
            note and repeat each merge on their own; tags merge as a set (a tag added on \
            one machine and another removed on the other: both apply).
            The server (--server, else $TODO_SERVER, else the one last synced with) is \
            remembered after the first successful sync. todo-server is synced through its \
            change feed; any other json-server-style server through its full list, every \
            page of it that the server announces (Link headers, json-server 1.0's envelope). \
            A todo missing from that list is deleted here only once the server confirms it \
            is gone (404 or 410 for it); if it is still there, the list was partial and the \
            sync stops, deleting nothing. For a server that pages without saying so, name \
            its paging once with --page-param and --page-size-param.
            A server that cannot be reached fails at once with exit status 69, local \
            changes staying queued; timeouts and server errors are retried for about 10 s.
            A caldav+https://… server is one task list on a CalDAV server (Nextcloud, \
            Radicale, Baïkal, Fastmail, iCloud; --caldav-lists finds an account's lists): \
            --user and the password (TODO_PASSWORD, else asked on the terminal) are \
            remembered for it after a sync that works. Changes are read through its \
            sync-token, and written on the server's own text with only the changed \
            properties rewritten, with If-Match on its ETag.
            --watch keeps syncing, one line per sync: at once when todo-server announces a \
            change (its event stream), and at once after a change made here by any todo \
            command. Another server is asked every --every seconds while syncs bring \
            changes, less often while nothing changes or it is away (never less often than \
            every 5 minutes). Ctrl-C or SIGTERM ends it after the sync in flight.

            Examples:
              todo sync --server http://127.0.0.1:3000
              todo sync --watch --every 10
              todo sync --dry-run
              todo sync --prefer local
              todo sync --page-param page --page-size-param size --first-page 0
              TODO_PASSWORD=... todo sync --caldav-lists https://cloud.example.org/ --user alice
              todo sync --server caldav+https://cloud.example.org/dav/alice/tasks/ --user alice
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The server's base URL, or caldav+URL for a CalDAV task list (default: $TODO_SERVER, else the last one).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Bearer token for the server, remembered for it after a sync that works (default: $TODO_TOKEN, else the one remembered).", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Who wins a conflict this run: the newest edit, local or remote.", valueName: "side"))
    var prefer: ConflictPreference = .newest

    @Flag(help: "Print the plan (pulls, pushes, deletions, conflicts) and change nothing.")
    var dryRun = false

    @Flag(help: "Allow a sync that deletes every synced todo here, or more than half of them, or follows an empty server list.")
    var force = false

    @Option(help: ArgumentHelp("auto, todo-server or json-server.", valueName: "kind"))
    var serverKind: ServerKindChoice = .auto

    @Option(help: ArgumentHelp("The server's field for the text (default: title, or the last one used).", valueName: "name"))
    var titleField: String?

    @Option(help: ArgumentHelp("The server's field for done (default: completed, or the last one used).", valueName: "name"))
    var completedField: String?

    @Option(help: ArgumentHelp("The server's field for the creation time (default: createdAt, or the last one used).", valueName: "name"))
    var createdAtField: String?

    @Option(help: ArgumentHelp("The server's field for the last change's time (default: updatedAt, or the last one used).", valueName: "name"))
    var updatedAtField: String?

    @Option(help: ArgumentHelp("The server's field for the completion time (default: completedAt, or the last one used).", valueName: "name"))
    var completedAtField: String?

    @Option(help: ArgumentHelp("The server's field for the due date (default: dueDate, or the last one used).", valueName: "name"))
    var dueField: String?

    @Option(help: ArgumentHelp("The server's field for the priority (default: priority, or the last one used).", valueName: "name"))
    var priorityField: String?

    @Option(help: ArgumentHelp("The server's field for the tags (default: tags, or the last one used).", valueName: "name"))
    var tagsField: String?

    @Option(help: ArgumentHelp("The server's field for the note (default: note, or the last one used).", valueName: "name"))
    var noteField: String?

    @Option(help: ArgumentHelp("The server's field for the repeat (default: repeat, or the last one used).", valueName: "name"))
    var repeatField: String?

    @Option(help: ArgumentHelp("For a server that pages its list without saying so: the query parameter of the page number (remembered).", valueName: "name"))
    var pageParam: String?

    @Option(help: ArgumentHelp("With --page-param: the query parameter of the page size (remembered).", valueName: "name"))
    var pageSizeParam: String?

    @Option(help: ArgumentHelp("With --page-param: the number of the first page (default: 1; remembered).", valueName: "n"))
    var firstPage: Int?

    @Flag(help: "Forget the paging named with --page-param.")
    var noPaging = false

    @Flag(help: "Keep syncing: when the server announces a change or one is made here (else every --every seconds), until Ctrl-C or SIGTERM.")
    var watch = false

    @Option(help: ArgumentHelp("With --watch, for a server that does not announce its changes: seconds between syncs while they bring changes (default: 30; longer while nothing changes or the server is away, at most 300).", valueName: "seconds"))
    var every: Int?

    @Flag(help: "With --watch: print nothing but failures.")
    var quiet = false

    @Option(help: ArgumentHelp("List the task lists of an account on a CalDAV server (its address, like https://HOST/), then stop; with --user, and the password in TODO_PASSWORD or typed when asked (remembered for that server).", valueName: "url"))
    var caldavLists: String?

    @Option(help: ArgumentHelp("The account's name on a CalDAV server, for --caldav-lists or a caldav+ --server (remembered for that server).", valueName: "name"))
    var user: String?

    func validate() throws {
        if (pageParam == nil) != (pageSizeParam == nil) {
            throw ValidationError("--page-param and --page-size-param go together: name both, e.g. --page-param page --page-size-param size")
        }
        if firstPage != nil, pageParam == nil {
            throw ValidationError("--first-page goes with --page-param and --page-size-param")
        }
        if noPaging, pageParam != nil {
            throw ValidationError("--no-paging and --page-param contradict each other: give one")
        }
        for (option, name) in [("--page-param", pageParam), ("--page-size-param", pageSizeParam)] {
            if let name, name.isEmpty || name.contains(where: { "&=?# ".contains($0) }) {
                throw ValidationError("\(option) takes a query parameter's name, without & = ? # or spaces")
            }
        }
        if let firstPage, firstPage < 0 {
            throw ValidationError("--first-page must be 0 or more")
        }
        if !watch, every != nil || quiet {
            throw ValidationError("--every and --quiet go with --watch: add --watch to keep syncing")
        }
        if let every, every < 1 || every > 86_400 {
            throw ValidationError("--every takes seconds from 1 to 86400, got \(every)")
        }
        let calDAV = server.map(SyncConfiguration.isCalDAV) ?? false
        if user != nil, caldavLists == nil, server != nil, !calDAV {
            throw ValidationError("--user goes with --caldav-lists URL, or with --server caldav+URL")
        }
        if calDAV {
            let jsonOnly: [(String, Any?)] = [
                ("--token", token), ("--title-field", titleField), ("--completed-field", completedField),
                ("--created-at-field", createdAtField), ("--updated-at-field", updatedAtField),
                ("--completed-at-field", completedAtField), ("--due-field", dueField), ("--priority-field", priorityField),
                ("--tags-field", tagsField), ("--note-field", noteField), ("--repeat-field", repeatField),
                ("--page-param", pageParam),
            ]
            if let (option, _) = jsonOnly.first(where: { $0.1 != nil }) {
                throw ValidationError("\(option) is for JSON servers; a CalDAV task list (caldav+) takes --user and a password")
            }
            if serverKind != .auto {
                throw ValidationError("--server-kind is for JSON servers; a caldav+ address is a CalDAV task list already")
            }
        }
        if caldavLists != nil, watch || dryRun || server != nil || token != nil {
            throw ValidationError("--caldav-lists only lists an account's task lists: drop --watch, --dry-run, --server and --token")
        }
        if watch, dryRun {
            throw ValidationError("--watch and --dry-run contradict each other: a dry run changes nothing, so it has nothing to watch")
        }
    }

    /// This sync's field names and paging, over those remembered.
    func adjust(_ settings: inout SyncSettings) {
        settings.names.title = titleField ?? settings.names.title
        settings.names.completed = completedField ?? settings.names.completed
        settings.names.createdAt = createdAtField ?? settings.names.createdAt
        settings.names.updatedAt = updatedAtField ?? settings.names.updatedAt
        settings.names.completedAt = completedAtField ?? settings.names.completedAt
        settings.names.due = dueField ?? settings.names.due
        settings.names.priority = priorityField ?? settings.names.priority
        settings.names.tags = tagsField ?? settings.names.tags
        settings.names.note = noteField ?? settings.names.note
        settings.names.recurrence = repeatField ?? settings.names.recurrence
        if let pageParam, let pageSizeParam {
            settings.paging = ListPaging(pageParam: pageParam, sizeParam: pageSizeParam, firstPage: firstPage ?? 1)
        } else if noPaging {
            settings.paging = nil
        }
    }

    @MainActor
    mutating func run() async throws {
        if let caldavLists {
            try await CalDAVLists(given: caldavLists, user: user, environment: ProcessInfo.processInfo.environment).run()
            return
        }
        let path = database.resolvedPath
        // Sync's store is built over the database itself; the rest goes through the core's protocols.
        let db = try database.openForSync()
        let todos: any TodoDatabase = db
        // A database that cannot be written cannot be synced; a dry run only reads.
        if !dryRun {
            try todos.checkWritable()
        }
        var setup = SyncSetup(environment: ProcessInfo.processInfo.environment, server: server, token: token)
        (setup.kind, setup.prefer, setup.force) = (serverKind.kind, prefer, force)
        setup.user = user
        if isatty(STDIN_FILENO) == 1 { setup.askPassword = { user, origin in try CalDAVLists.ask(user: user, at: origin) } }
        if watch {
            try await SyncWatch(command: self, db: db, databasePath: path, setup: setup).run()
            return
        }
        let lock = todos.isReadOnly ? nil : try SyncSetup.lock(databasePath: path)
        defer { lock?.release() }
        let logic = TodoLogic(over: todos)
        let onTerminal = isatty(STDERR_FILENO) == 1
        let showsProgress = onTerminal && !dryRun
        let subscription = logic.state.onChange { state in
            if showsProgress, let progress = state.syncProgress, progress.total > 20 {
                FileHandle.standardError.write(Data("\rSyncing \(progress.done)/\(progress.total)\u{1B}[K".utf8))
            }
        }
        defer { subscription.cancel() }
        let summary: SyncSummary
        do {
            summary = try await syncOnce(db: db, setup: setup, logic: logic, showsRetries: onTerminal)
            if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        } catch {
            if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if case let .unavailable(message)? = error as? TodoError {
                // EX_UNAVAILABLE: a script can tell "offline" from "failed".
                FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
                throw ExitCode(69)
            }
            throw error
        }
        for line in dryRun ? summary.steps : summary.conflicts.map(\.line) {
            print(line)
        }
        for skipped in summary.skipped {
            FileHandle.standardError.write(Data("warning: skipped an unreadable server item: \(skipped)\n".utf8))
        }
        print(summary.line)
    }

    /// One sync of `db` through `logic`, the lock already held: the settings
    /// and a token given are remembered after it works (not after a dry run).
    @MainActor
    func syncOnce(db: AppDatabase, setup: SyncSetup, logic: TodoLogic, showsRetries: Bool) async throws -> SyncSummary {
        try await logic.sync(with: CommandSync(command: self, db: db, setup: setup, showsRetries: showsRetries), dryRun: dryRun)
    }
}

/// `--server-kind`: a kind, or detect it.
enum ServerKindChoice: String, ExpressibleByArgument, CaseIterable {
    case auto
    case todoServer = "todo-server"
    case jsonServer = "json-server"

    var kind: ServerKind? { ServerKind(rawValue: rawValue) }
}

extension ConflictPreference: ExpressibleByArgument {}

extension SyncConflict {
    /// One line per conflict, as sync prints it and status lists it: the
    /// values, when each edit was made, and which was kept.
    var line: String {
        let id = String(todoId.uuidString.lowercased().prefix(8))
        var times = ""
        if let local = localEditedAt, let remote = remoteEditedAt {
            let newer = local > remote ? "here" : local < remote ? "on the server" : "at the same time"
            times = " (edited here \(ISO8601.string(from: local)), on the server \(ISO8601.string(from: remote)): newer \(newer))"
        }
        return "conflict on \(id) \(field): here \"\(localValue)\", server \"\(remoteValue)\"\(times): \(winner.rawValue) kept"
    }
}
