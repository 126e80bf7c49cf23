import Hummingbird

/// Lets a request through only with `Authorization: Bearer TOKEN`, else 401.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]

    init(token: String) {
        self.token = Array(token.utf8)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.count > prefix.count, header.hasPrefix(prefix),
            Self.constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), token)
        else {
            throw ServerError(
                .unauthorized,
                "This server needs a token: send the header Authorization: Bearer TOKEN.",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
        return try await next(request, context)
    }

    /// Compares every byte whatever the first difference, so the time taken
    /// says nothing about how much of a guess was right. It depends only on
    /// the length of the guess, which the client already knows.
    static func constantTimeEquals(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        guard !expected.isEmpty else { return false }
        var difference = UInt64(given.count ^ expected.count)
        for index in given.indices {
            difference |= UInt64(given[index] ^ expected[index % expected.count])
        }
        return difference == 0
    }
}
