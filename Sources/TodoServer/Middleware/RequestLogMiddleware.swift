import Hummingbird
import Logging

/// Logs each request as it arrives: its method, path, and the names of its
/// query parameters, never their values nor any header's.
///
/// A client may put a token or a personal search in the query string, and
/// logs are kept and read more widely than requests: `?q=x&token=y` is
/// logged as `?q=…&token=…`. Hummingbird's `LogRequestsMiddleware` logs the
/// whole URI.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    init(_ level: Logger.Level) {
        self.level = level
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.log(
            level: level,
            "Request",
            metadata: [
                "hb.request.path": .string(Self.redacted(path: request.uri.path, query: request.uri.query)),
                "hb.request.method": .string(request.method.rawValue),
            ]
        )
        return try await next(request, context)
    }

    /// The path, with each query parameter's value replaced by `…`.
    static func redacted(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        let names = query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            let name = parameter.prefix { $0 != "=" }
            return name.count == parameter.count ? String(name) : name + "=…"
        }
        return path + "?" + names.joined(separator: "&")
    }
}
