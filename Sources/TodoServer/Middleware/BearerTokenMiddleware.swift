import Hummingbird

/// Lets a request through only with `Authorization: Bearer TOKEN` (or, from
/// a CalDAV app, Basic credentials whose password is the token), else 401.
/// With `throttle`, failures are counted there and an address with too many
/// gets 429.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = TodoRequestContext
    let token: [UInt8]
    let throttle: (any AccountStore)?
    let trustedProxies: Set<String>

    init(token: String, throttle: (any AccountStore)? = nil, trustedProxies: Set<String> = []) {
        self.token = Array(token.utf8)
        self.throttle = throttle
        self.trustedProxies = trustedProxies
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = ClientAddress.of(request, context, trustedProxies: trustedProxies)
        // The token first: a valid one is served whatever the address's failures.
        guard let given = OfferedCredentials(request)?.token, Self.constantTimeEquals(given, token) else {
            // No credentials at all is a challenge (a client's first try), not a failure.
            if let throttle, request.headers[.authorization] != nil {
                try await FailedAuthentications.refuseIfThrottled(address, throttle)
                if let seconds = try await throttle.recordFailedAuthentication(address: address) {
                    throw FailedAuthentications.tooMany(retryAfter: seconds)
                }
            }
            throw ServerError(
                .unauthorized,
                OfferedCredentials.isCalDAV(request)
                    ? "This server needs its token: sign in with any user name and the token as the password."
                    : "This server needs a token: send the header Authorization: Bearer TOKEN.",
                headers: OfferedCredentials.challenges(for: request)
            )
        }
        return try await next(request, context)
    }

    /// The credentials of a `Bearer` header, whose scheme name is
    /// case-insensitive (RFC 9110 §11.1): `bearer TOKEN` works too.
    static func bearerToken(_ header: String) -> [UInt8]? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count + 1,
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }),
            bytes[scheme.count] == UInt8(ascii: " ")
        else { return nil }
        let credentials = bytes.dropFirst(scheme.count).drop { $0 == UInt8(ascii: " ") }
        return credentials.isEmpty ? nil : Array(credentials)
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
