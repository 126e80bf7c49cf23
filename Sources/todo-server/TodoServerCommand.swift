import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import TodoServer

/// `todo-server`: serves `/todos` over HTTP until SIGINT or SIGTERM.
@main
struct TodoServerCommand: AsyncParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "todo-server",
        abstract: "Serve todos as JSON over HTTP, for `todo sync`, curl and json-server clients.",
        discussion: """
            Speaks json-server's REST conventions on /todos, plus versions (ETag, If-Match) \
            and a change feed (GET /todos?_since=CURSOR) with its announcements for live \
            clients (GET /todos/events, Server-Sent Events), and CalDAV on /dav/ for phone \
            and desktop task apps (their address: http://HOST:PORT/dav/NAME/tasks/, \
            signing in with the account's name and a token). Stops gracefully on SIGINT or \
            SIGTERM, finishing requests in flight.

            Without accounts it serves one list: to anyone (keep it on loopback), or to \
            whoever sends --token. Once `todo-server user add` has made an account, every \
            request needs a token of one, and sees that account's todos only.

            Examples:
              todo-server
              todo-server --port 8080 --database ./todos.sqlite
              TODO_SERVER_TOKEN=s3cret todo-server --host 0.0.0.0
              todo-server user add alice
              curl -d '{"title":"Buy milk"}' localhost:3000/todos
            """,
        version: version,
        subcommands: [UserCommand.self]
    )

    @Option(help: "The address to listen on. The default, loopback, is reachable from this machine only.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port to listen on (0 picks a free one).")
    var port = 3000

    // The same group as `user`'s: ArgumentParser hands a subcommand the
    // values of a group its parent shares, so `--database` works after `user add`.
    @OptionGroup var location: DatabaseOption

    @Option(help: "Require 'Authorization: Bearer TOKEN' on every request (or set TODO_SERVER_TOKEN).")
    var token: String?

    @Option(help: "Days a deletion is remembered for the change feed; older cursors get 410 Gone.")
    var tombstoneDays = 30

    @Option(help: "Seconds a connection may sit idle, or a request stall, before it is closed.")
    var idleTimeout = 60

    @Option(help: "full: a write is on disk before it is acknowledged. normal: faster; survives a crash of the server, not of the machine.")
    var durability: ServerDatabase.Durability = .full

    @Option(help: "A reverse proxy's address, whose X-Forwarded-For names the client (repeat for several).")
    var trustedProxy: [String] = []

    @Option(help: "How the log is written to standard error: text, or json (one object a line).")
    var logFormat: LogFormat = .text

    @Option(help: "Seconds between the comment lines that keep a quiet event stream (GET /todos/events) open through proxies.")
    var eventHeartbeat = 30

    @Option(help: "Most event streams open at once, in all; past it, 429.")
    var maxEventStreams = 10_000

    @Option(help: "Most event streams one account may have open at once (its live views and watches); past it, 429.")
    var maxEventStreamsPerAccount = 20

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535, not \(port).")
        }
        guard tombstoneDays >= 1 else {
            throw ValidationError("--tombstone-days must be at least 1, not \(tombstoneDays).")
        }
        guard idleTimeout >= 1, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be from 1 to 86400 seconds, not \(idleTimeout).")
        }
        if let token, token.isEmpty {
            throw ValidationError("--token must not be empty.")
        }
        guard eventHeartbeat >= 1, eventHeartbeat <= 3_600 else {
            throw ValidationError("--event-heartbeat must be from 1 to 3600 seconds, not \(eventHeartbeat).")
        }
        guard maxEventStreams >= 0, maxEventStreamsPerAccount >= 0 else {
            throw ValidationError("--max-event-streams and --max-event-streams-per-account must be 0 (no streams) or more.")
        }
        // An empty variable is a mistake, not a wish for no token: refused as
        // `--token ""` is, rather than starting a server anyone can write to.
        if token == nil, ProcessInfo.processInfo.environment["TODO_SERVER_TOKEN"]?.isEmpty == true {
            throw ValidationError("TODO_SERVER_TOKEN must not be empty; unset it to run without a token.")
        }
    }

    func run() async throws {
        if logFormat == .json {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
        let logger = Logger(label: "todo-server")
        let retention = Duration.seconds(tombstoneDays * 86_400)
        switch try location.resolve() {
        case .sqlite(let path):
            let repository: SQLiteTodoRepository
            do {
                repository = try SQLiteTodoRepository.open(path: path, durability: durability, tombstoneRetention: retention)
            } catch {
                throw ValidationError("Cannot open the database \(path): \(error)")
            }
            try await serve(repository, accounts: repository.accountStore, database: path, logger: logger)
        case .postgres(let postgres):
            var poolLogger = logger
            poolLogger.logLevel = .warning
            let database = PostgresDatabase(postgres, logger: poolLogger)
            // The pool runs beside the server and stops after it, once the
            // requests in flight have their answers.
            try await database.whileRunning {
                let repository = try await PostgresTodoRepository.open(database, tombstoneRetention: retention)
                try await serve(repository, accounts: repository.accountStore, database: postgres.displayName, logger: logger)
            }
        }
    }

    /// Serves `repository` until SIGINT or SIGTERM.
    private func serve(_ repository: some TodoRepository, accounts: some AccountStore, database: String, logger: Logger) async throws {
        let hasAccounts: Bool
        do {
            hasAccounts = try await accounts.hasAccounts()
        } catch {
            throw ValidationError("Cannot open the database \(database): \(error)")
        }
        let sharedToken = token ?? ProcessInfo.processInfo.environment["TODO_SERVER_TOKEN"]
        if hasAccounts, sharedToken != nil {
            throw ValidationError(
                "\(database) has accounts, so each request needs its account's token: drop --token (and TODO_SERVER_TOKEN)."
            )
        }
        let auth = hasAccounts ? "accounts" : sharedToken == nil ? "none" : "bearer"
        let app = buildApplication(
            repository: repository,
            // Accounts are looked up on each request, so one added while the
            // server runs locks it at once; with --token, they count failures.
            accounts: accounts,
            options: ServerOptions(
                token: sharedToken, idleTimeout: .seconds(idleTimeout), trustedProxies: Set(trustedProxy),
                eventHeartbeat: .seconds(eventHeartbeat),
                eventStreamLimits: ChangeAnnouncer.Limits(total: maxEventStreams, perAccount: maxEventStreamsPerAccount)
            ),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "todo-server"),
            logger: logger,
            onServerRunning: { port in
                // Said once it listens, never before: a port in use serves nothing.
                logger.info("Serving todos", metadata: ["database": "\(database)", "auth": "\(auth)", "port": "\(port ?? 0)"])
            }
        )
        do {
            try await app.runService()
        } catch let error as IOError {
            throw ServeError.cannotListen(host: host, port: port, reason: error.errnoCode)
        }
    }
}

/// Why `todo-server` could not serve, in one line that says what to do.
enum ServeError: Error, CustomStringConvertible {
    case cannotListen(host: String, port: Int, reason: CInt)

    var description: String {
        switch self {
        case let .cannotListen(host, port, reason) where reason == EADDRINUSE:
            "cannot listen on \(host):\(port): another program already uses that port; stop it, or choose another with --port"
        case let .cannotListen(host, port, reason) where reason == EACCES:
            "cannot listen on \(host):\(port): ports below 1024 need root; choose another with --port"
        case let .cannotListen(host, port, reason):
            "cannot listen on \(host):\(port) (\(String(cString: strerror(reason)))): check --host and --port"
        }
    }
}

extension ServerDatabase.Durability: ExpressibleByArgument {}
extension LogFormat: ExpressibleByArgument {}
