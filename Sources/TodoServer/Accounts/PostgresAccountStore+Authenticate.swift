import Foundation
import NIOCore
import PostgresNIO

// MARK: - Serving: the token check

extension PostgresAccountStore {
    /// One prepared statement reads whether accounts exist, the address's
    /// failures and the token's row. Checked on every request, so the first
    /// `todo-server user add` locks a running server at once, without a restart.
    public func authenticate(token: [UInt8]?, address: String, list: ListAddress?) async throws -> (Authentication, ListAccess?) {
        let now = nowMilliseconds
        let facts = try await database.rows(
            CheckToken(address: address, tokenHash: token.map { AccessToken.hash($0) } ?? Data(), list: list)
        ).first
        let authentication = try await authentication(facts, address: address, now: now, sentToken: token != nil)
        guard case .account = authentication, let list, let facts else { return (authentication, nil) }
        return (authentication, ListAccess.found(list, owner: facts.listOwner, member: facts.account, role: facts.role))
    }

    public func access(_ account: AccountID, to address: ListAddress) async throws -> ListAccess? {
        let rows = try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT o.id, s.role FROM account AS o
                    LEFT JOIN list_share AS s ON s.owner = o.id AND s.list = \(address.list) AND s.member = \(account.rawValue)
                        AND s.joined_as IS NOT NULL
                WHERE o.name = \(address.owner) AND o.id <> 0
                """,
                logger: database.logger
            ).collect()
        }
        guard let row = rows.first else { return nil }
        let (owner, role) = try row.decode((Int64, String?).self)
        return ListAccess.found(address, owner: owner, member: account.rawValue, role: role)
    }

    /// What the facts come to; counts a failure, or notes the token's use
    /// (at most once a minute, not on every request).
    private func authentication(_ facts: TokenFacts?, address: String, now: Int64, sentToken: Bool) async throws -> Authentication {
        guard let facts, facts.hasAccounts else { return .noAccounts }
        // A valid token is served whatever the address's failures: behind one
        // NAT or a proxy, one client's revoked token must not lock out the rest.
        guard let tokenID = facts.tokenID, let account = facts.account, facts.expiresAt.map({ $0 > now }) ?? true else {
            // No token at all is a challenge (a client's first try), not a failure.
            guard sentToken else { return .refused }
            if let windowStart = facts.windowStart, let failures = facts.failures,
                let seconds = Self.retryAfter(windowStart: windowStart, failures: failures, now: now)
            {
                return .throttled(retryAfter: seconds)
            }
            if let seconds = try await recordFailedAuthentication(address: address) { return .throttled(retryAfter: seconds) }
            return .refused
        }
        if facts.lastUsedAt.map({ $0 <= now - 60_000 }) ?? true {
            _ = try await database.rows(NoteTokenUse(tokenID: tokenID, now: now))
        }
        return .account(AccountID(account))
    }
}

/// What the token check reads: whether accounts exist, the address's
/// failures, and the token's row (an empty hash, for no token, matches none);
/// for a list's route, its owner and the token's account's role in it (no
/// list: null names, which match nothing).
private struct CheckToken: PostgresPreparedStatement {
    static let sql = """
        SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0),
            f.window_start, f.failures, t.id, t.account, t.expires_at, t.last_used_at, o.id, s.role
        FROM (SELECT 1) AS one
            LEFT JOIN auth_failure AS f ON f.address = $1
            LEFT JOIN access_token AS t ON t.hash = $2
            LEFT JOIN account AS o ON o.name = $3 AND o.id <> 0
            LEFT JOIN list_share AS s ON s.owner = o.id AND s.list = $4 AND s.member = t.account AND s.joined_as IS NOT NULL
        """
    typealias Row = TokenFacts
    let address: String
    let tokenHash: Data
    let list: ListAddress?

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(address)
        bindings.append(ByteBuffer(bytes: tokenHash))
        bindings.append(list?.owner)
        bindings.append(list?.list)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (hasAccounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt, listOwner, role) =
            try row.decode((Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, String?).self)
        return TokenFacts(
            hasAccounts: hasAccounts, windowStart: windowStart, failures: failures, tokenID: tokenID,
            account: account, expiresAt: expiresAt, lastUsedAt: lastUsedAt, listOwner: listOwner, role: role
        )
    }
}

/// Whether accounts exist, the address's failures, and the token's row.
private struct TokenFacts: Sendable {
    let hasAccounts: Bool
    let windowStart: Int64?
    let failures: Int64?
    let tokenID: Int64?
    let account: Int64?
    let expiresAt: Int64?
    let lastUsedAt: Int64?
    let listOwner: Int64?
    let role: String?
}

/// Notes a token's use, unless another request just did.
private struct NoteTokenUse: PostgresPreparedStatement {
    static let sql = """
        UPDATE access_token SET last_used_at = $1
        WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $1 - 60000)
        """
    typealias Row = ()
    let tokenID: Int64
    let now: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(now)
        bindings.append(tokenID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}
