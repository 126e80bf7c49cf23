import Hummingbird
import Logging

/// What the server is told at start, beyond where its data lives.
public struct ServerOptions: Sendable {
    /// When set, every request needs `Authorization: Bearer TOKEN`.
    public var token: String?
    /// Largest request body accepted; larger ones get 413.
    public var maxBodySize: Int
    /// The level at which each request is logged.
    public var requestLogLevel: Logger.Level
    /// How long a connection may sit with no request before it is closed;
    /// also bounds a request whose head or body stops arriving.
    public var idleTimeout: Duration
    /// How long a request head may take to arrive once it has begun.
    public var headerTimeout: Duration
    /// Peers whose `X-Forwarded-For` names the client, for counting failed
    /// authentications per client behind a reverse proxy.
    public var trustedProxies: Set<String>
    /// How often a quiet event stream (`GET /todos/events`) gets a comment line.
    public var eventHeartbeat: Duration
    /// How many event streams may be open, in all and per account; past them, 429.
    public var eventStreamLimits: ChangeAnnouncer.Limits

    public static let defaultMaxBodySize = 1024 * 1024
    public static let defaultIdleTimeout: Duration = .seconds(60)

    public init(
        token: String? = nil,
        maxBodySize: Int = defaultMaxBodySize,
        requestLogLevel: Logger.Level = .info,
        idleTimeout: Duration = defaultIdleTimeout,
        headerTimeout: Duration = HTTPLimits.defaultHeaderTimeout,
        trustedProxies: Set<String> = [],
        eventHeartbeat: Duration = .seconds(30),
        eventStreamLimits: ChangeAnnouncer.Limits = ChangeAnnouncer.Limits()
    ) {
        self.eventHeartbeat = eventHeartbeat
        self.eventStreamLimits = eventStreamLimits
        self.trustedProxies = trustedProxies
        self.token = token
        self.maxBodySize = maxBodySize
        self.requestLogLevel = requestLogLevel
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
    }
}

/// The router: request logging, JSON errors, HEAD, the token check, then `/todos`.
///
/// Who may ask: with `options.token`, whoever sends it (failures counted in
/// `accounts` if given); else with `accounts`, anyone for the single list
/// until an account exists, then whoever sends a token of one, acting for
/// that account; else anyone, for the single list.
public func buildRouter(
    repository: some TodoRepository,
    accounts: (any AccountStore)? = nil,
    options: ServerOptions = ServerOptions()
) -> Router<TodoRequestContext> {
    let router = Router(context: TodoRequestContext.self)
    router.add(middleware: RequestLogMiddleware(options.requestLogLevel))
    router.add(middleware: LogResponsesMiddleware(options.requestLogLevel))
    router.add(middleware: HeadResponseMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    if let token = options.token {
        router.add(middleware: BearerTokenMiddleware(token: token, throttle: accounts, trustedProxies: options.trustedProxies))
    } else if let accounts {
        router.add(middleware: AccountTokenMiddleware(accounts: accounts, trustedProxies: options.trustedProxies))
    }
    let announcer = ChangeAnnouncer(watcher: repository.changeWatcher, heartbeat: options.eventHeartbeat, limits: options.eventStreamLimits)
    router.addRoutes(
        TodoController(repository: repository, maxBodySize: options.maxBodySize, announcer: announcer).endpoints,
        atPath: "/todos"
    )
    // One shared list's todos, for its owner and its members.
    if let accounts {
        router.addRoutes(
            TodoController(repository: repository, maxBodySize: options.maxBodySize, announcer: announcer, scope: .list, accounts: accounts).endpoints,
            atPath: "/lists/:owner/:list/todos"
        )
    }
    // The same todos over CalDAV, for phones, desktop apps and todoman.
    CalDAVController(repository: repository, accounts: accounts, maxBodySize: options.maxBodySize).addRoutes(to: router)
    // Lists shared between accounts.
    if let accounts {
        ShareController(shares: accounts).addRoutes(to: router)
    }
    // For load balancers and uptime checks: the database answers a trivial
    // read (and the benchmark's baseline: the same stack with next to no work).
    let health: @Sendable (Request, TodoRequestContext) async throws -> Response = { _, _ in
        try await repository.checkHealth()
        return Response.json(#"{"status":"ok"}"#)
    }
    router.get("health", use: health)
    router.head("health", use: health)
    return router
}

/// The application around the router, listening where `configuration` says,
/// over HTTP/1 with the limits and timeouts of `HTTPLimits` and `options`.
public func buildApplication(
    repository: some TodoRepository,
    accounts: (any AccountStore)? = nil,
    options: ServerOptions = ServerOptions(),
    configuration: ApplicationConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(repository: repository, accounts: accounts, options: options),
        server: .todoHTTP1(idleTimeout: options.idleTimeout, headerTimeout: options.headerTimeout),
        configuration: configuration,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
        logger: logger
    )
}
