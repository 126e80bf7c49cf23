import Hummingbird
import Logging

/// Turns every failure into a JSON error body, so a client always learns
/// what was wrong: unknown routes (404), wrong methods (405), framework
/// errors, and, logged, anything unexpected (500).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError where error.status == .notFound {
            return try Self.noRoute(request).response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            let message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
            return try ServerError(error.status, message).response(from: request, context: context)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try ServerError(.internalServerError, "The server failed to handle this request; it has been logged.")
                .response(from: request, context: context)
        }
    }

    /// 405 with `Allow` for a known path, else 404.
    static func noRoute(_ request: Request) -> ServerError {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        let allowed: String? =
            switch (segments.first, segments.count) {
            case ("todos", 1): "GET, HEAD, POST"
            case ("todos", 2): "GET, HEAD, PUT, PATCH, DELETE"
            default: nil
            }
        if let allowed {
            return ServerError(
                .methodNotAllowed,
                "\(request.method) is not allowed on \(request.uri.path); use \(allowed).",
                headers: [.allow: allowed]
            )
        }
        return ServerError(.notFound, "No route for \(request.method) \(request.uri.path); this server serves /todos.")
    }
}
