/// Accounts, their tokens and the count of failed authentications, kept in
/// the server's database so that every server on it shares them.
public protocol AccountStore: ShareStore {
    // MARK: - Serving

    /// True when named accounts exist: the server then requires a token of one.
    func hasAccounts() async throws -> Bool
    /// Who sends `token` from `address`: `.noAccounts` while no account
    /// exists (the single list is open); else its account; or `.throttled`
    /// when the address failed too often lately; or `.refused` when the token
    /// is unknown, revoked or expired (all alike), counting a failure, or
    /// missing (a challenge, as a client's first request is: not counted).
    /// Notes a token's use, at most once a minute.
    ///
    /// With `list`, the same query also finds what the token's account may
    /// do with that list (nil: it is not the owner nor a member who joined).
    func authenticate(token: [UInt8]?, address: String, list: ListAddress?) async throws -> (Authentication, ListAccess?)
    /// What `account` may do with the list at `address` now: nil once it is
    /// no longer the list's owner or a member (an event stream asks again).
    func access(_ account: AccountID, to address: ListAddress) async throws -> ListAccess?
    /// Seconds before `address` may try again after too many failed
    /// authentications, or nil when it may try now.
    func retryAfter(address: String) async throws -> Int?
    /// Counts a failed authentication from `address`; nil when counted.
    /// An address that used up its failures in this window is not counted:
    /// the seconds before it may try again come back instead. Checked and
    /// counted in one statement, so of any number of failures at once, on
    /// any number of servers, at most `AuthThrottle.maxFailures` a window are counted.
    func recordFailedAuthentication(address: String) async throws -> Int?
    /// The name of `account`, nil for the single list's or a removed one's:
    /// a CalDAV client signs in with it beside a token.
    func name(of account: AccountID) async throws -> String?

    // MARK: - Managing

    /// Creates an account and its first token; returns the token, which is not kept.
    func addAccount(name: String, tokenLabel: String, expiresInDays: Int?) async throws -> String
    /// Issues another token to an account; returns it.
    func issueToken(account name: String, label: String, expiresInDays: Int?) async throws -> String
    /// Every account with its tokens' labels and dates, by name.
    func accounts() async throws -> [AccountSummary]
    /// Revokes one token of an account, or all of them when `label` is nil;
    /// returns how many.
    func revokeTokens(account name: String, label: String?) async throws -> Int
    /// Removes an account with its todos and tokens.
    func removeAccount(name: String) async throws
}

extension AccountStore {
    /// Who sends `token` from `address`, for a request that names no list.
    public func authenticate(token: [UInt8]?, address: String) async throws -> Authentication {
        try await authenticate(token: token, address: address, list: nil).0
    }
}

/// What a token check came to.
public enum Authentication: Sendable, Equatable {
    /// No account exists yet: the request is for the single list.
    case noAccounts
    case account(AccountID)
    /// Too many failures from the address: try again after this many seconds.
    case throttled(retryAfter: Int)
    case refused
}

/// How failed authentications are throttled: after `maxFailures` from one
/// address within a window of `windowMilliseconds` (fixed, from the first
/// failure), every further failure from it gets 429 until the window ends.
public enum AuthThrottle {
    public static let maxFailures = 10
    public static let windowMilliseconds: Int64 = 60_000
}
