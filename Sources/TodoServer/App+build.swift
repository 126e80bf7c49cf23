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

    public static let defaultMaxBodySize = 1024 * 1024
    public static let defaultIdleTimeout: Duration = .seconds(60)

    public init(
        token: String? = nil,
        maxBodySize: Int = defaultMaxBodySize,
        requestLogLevel: Logger.Level = .info,
        idleTimeout: Duration = defaultIdleTimeout,
        headerTimeout: Duration = HTTPLimits.defaultHeaderTimeout
    ) {
        self.token = token
        self.maxBodySize = maxBodySize
        self.requestLogLevel = requestLogLevel
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
    }
}

/// The router: request logging, JSON errors, HEAD, the token check, then `/todos`.
public func buildRouter(repository: some TodoRepository, options: ServerOptions = ServerOptions()) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: RequestLogMiddleware(options.requestLogLevel))
    router.add(middleware: LogResponsesMiddleware(options.requestLogLevel))
    router.add(middleware: HeadResponseMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    if let token = options.token {
        router.add(middleware: BearerTokenMiddleware(token: token))
    }
    router.addRoutes(TodoController(repository: repository, maxBodySize: options.maxBodySize).endpoints, atPath: "/todos")
    // A constant answer for load balancers and uptime checks (and the
    // benchmark's baseline: what the same stack serves with no work to do).
    let health: @Sendable (Request, BasicRequestContext) -> Response = { _, _ in
        Response.json(#"{"status":"ok"}"#)
    }
    router.get("health", use: health)
    router.head("health", use: health)
    return router
}

/// The application around the router, listening where `configuration` says,
/// over HTTP/1 with the limits and timeouts of `HTTPLimits` and `options`.
public func buildApplication(
    repository: some TodoRepository,
    options: ServerOptions = ServerOptions(),
    configuration: ApplicationConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(repository: repository, options: options),
        server: .todoHTTP1(idleTimeout: options.idleTimeout, headerTimeout: options.headerTimeout),
        configuration: configuration,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
        logger: logger
    )
}
