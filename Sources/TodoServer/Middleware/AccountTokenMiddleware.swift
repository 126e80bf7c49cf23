import Hummingbird

/// Once any account exists, lets a request through only with a valid token
/// of an account, and sets the context's account to it; before, lets every
/// request through to the single list. Unknown, revoked and expired tokens get
/// the same 401; an address with too many failures gets 429 at once for a
/// token that is not valid (a valid one is always served). On a list's
/// route, the same query finds what the account may do with the list.
struct AccountTokenMiddleware: RouterMiddleware {
    typealias Context = TodoRequestContext
    let accounts: any AccountStore
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.of(request, context, trustedProxies: trustedProxies)
        let credentials = OfferedCredentials(request)
        var context = context
        let (authentication, list) = try await accounts.authenticate(
            token: credentials?.token, address: address, list: ListAddress.of(path: request.uri.path)
        )
        switch authentication {
        case .noAccounts:
            return try await next(request, context)
        case .account(let account):
            // Basic credentials name the account too: the name must be the token's.
            if let user = credentials?.user {
                let name = try await accounts.name(of: account)
                guard name == user else {
                    if let seconds = try await accounts.recordFailedAuthentication(address: address) {
                        throw FailedAuthentications.tooMany(retryAfter: seconds)
                    }
                    throw Self.refusal(request)
                }
                context.accountName = name
            }
            context.account = account
            context.list = list
            return try await next(request, context)
        case .throttled(let seconds):
            throw FailedAuthentications.tooMany(retryAfter: seconds)
        case .refused:
            throw Self.refusal(request)
        }
    }

    static func refusal(_ request: Request) -> ServerError {
        if OfferedCredentials.isCalDAV(request) {
            return ServerError(
                .unauthorized,
                "This server needs an account's name and token: sign in with the account's name as the user name "
                    + "and a token as the password (`todo-server user token NAME` issues one).",
                headers: OfferedCredentials.challenges(for: request)
            )
        }
        return ServerError(
            .unauthorized,
            "This server needs an account's token: send the header Authorization: Bearer TOKEN "
                + "(the server's operator issues tokens with `todo-server user token NAME`).",
            headers: [.wwwAuthenticate: "Bearer"]
        )
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
