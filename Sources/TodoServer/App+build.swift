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

    public static let defaultMaxBodySize = 1024 * 1024

    public init(
        token: String? = nil,
        maxBodySize: Int = defaultMaxBodySize,
        requestLogLevel: Logger.Level = .info
    ) {
        self.token = token
        self.maxBodySize = maxBodySize
        self.requestLogLevel = requestLogLevel
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

/// The application around the router, listening where `configuration` says.
public func buildApplication(
    repository: some TodoRepository,
    options: ServerOptions = ServerOptions(),
    configuration: ApplicationConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int?) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(repository: repository, options: options),
        configuration: configuration,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
        logger: logger
    )
}
