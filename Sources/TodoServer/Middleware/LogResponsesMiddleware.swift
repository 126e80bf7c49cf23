import Hummingbird
import Logging

/// Logs each response's status and how long it took, beside Hummingbird's
/// `LogRequestsMiddleware`, which logs the request as it arrives.
struct LogResponsesMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    init(_ level: Logger.Level) {
        self.level = level
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds / 1_000_000_000_000) / 1000 + Double(elapsed.components.seconds) * 1000
        context.logger.log(
            level: level,
            "Response",
            metadata: ["hb.response.status": "\(response.status.code)", "duration_ms": "\(milliseconds)"]
        )
        return response
    }
}
