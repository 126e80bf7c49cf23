import Hummingbird

/// Once any account exists, lets a request through only with a valid token
/// of an account, and sets the context's account to it; before, lets every
/// request through to the single list. Unknown, revoked and expired tokens get
/// the same 401; an address with too many failures gets 429 at once.
struct AccountTokenMiddleware: RouterMiddleware {
    typealias Context = TodoRequestContext
    let accounts: any AccountStore
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.of(request, context, trustedProxies: trustedProxies)
        let token = BearerTokenMiddleware.bearerToken(request.headers[.authorization] ?? "")
        var context = context
        let authentication: Authentication
        // A fast path for `get-one-account-pg` in Benchmarks/run.sh (BENCHMARKS.md): on
        // PostgreSQL the token check reads the todo too, one round trip instead of two.
        // PrefetchedReadTests pins its answers to the general path's.
        if let reader = accounts as? any AuthenticatingTodoReader, let id = Self.pointReadID(request) {
            let todo: StoredTodo?
            (authentication, todo) = try await reader.authenticate(token: token, address: address, reading: id)
            context.prefetchedTodo = PrefetchedTodo(id: id, todo: todo)
        } else {
            authentication = try await accounts.authenticate(token: token, address: address)
        }
        switch authentication {
        case .noAccounts:
            return try await next(request, context)
        case .account(let account):
            context.account = account
            return try await next(request, context)
        case .throttled(let seconds):
            throw FailedAuthentications.tooMany(retryAfter: seconds)
        case .refused:
            throw ServerError(
                .unauthorized,
                "This server needs an account's token: send the header Authorization: Bearer TOKEN "
                    + "(the server's operator issues tokens with `todo-server user token NAME`).",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
    }
}

extension AccountTokenMiddleware {
    /// The id of a `GET` or `HEAD /todos/:id`, or nil for any other request
    /// (or an id the route will refuse). The route reads it from the router's
    /// parameters and uses the prefetched todo only when the two ids agree.
    static func pointReadID(_ request: Request) -> String? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.uri.path
        let prefix = "/todos/"
        guard path.hasPrefix(prefix) else { return nil }
        let segment = path.utf8.dropFirst(prefix.utf8.count)
        guard !segment.isEmpty, !segment.contains(UInt8(ascii: "/")) else { return nil }
        return try? TodoID.key(inPath: Substring(segment))
    }
}

/// The throttle both token checks share.
enum FailedAuthentications {
    /// 429 with `Retry-After` when `address` failed too often lately.
    static func refuseIfThrottled(_ address: String, _ accounts: any AccountStore) async throws {
        if let seconds = try await accounts.retryAfter(address: address) {
            throw tooMany(retryAfter: seconds)
        }
    }

    static func tooMany(retryAfter seconds: Int) -> ServerError {
        ServerError(
            .tooManyRequests,
            "Too many failed authentications from this address; try again in \(seconds) seconds with a valid token.",
            headers: [.retryAfter: String(seconds)]
        )
    }
}
