import Hummingbird

/// Sends only the head of a response to `HEAD`, `Content-Length` included,
/// as RFC 9110 asks: every `GET` route has a `HEAD` route running the same
/// handler, and errors lose their JSON body too, or the client would read it
/// as the start of the next response.
struct HeadResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
