import Foundation
import NIOCore
import PostgresNIO

// MARK: - Serving: the token check

extension PostgresAccountStore {
    /// One prepared statement reads whether accounts exist, the address's
    /// failures and the token's row. Checked on every request, so the first
    /// `todo-server user add` locks a running server at once, without a restart.
    public func authenticate(token: [UInt8]?, address: String) async throws -> Authentication {
        let now = nowMilliseconds
        let facts = try await database.rows(CheckToken(address: address, tokenHash: token.map { AccessToken.hash($0) } ?? Data())).first
        return try await authentication(facts, address: address, now: now, sentToken: token != nil)
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
/// failures, and the token's row (an empty hash, for no token, matches none).
private struct CheckToken: PostgresPreparedStatement {
    static let sql = """
        SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0),
            f.window_start, f.failures, t.id, t.account, t.expires_at, t.last_used_at
        FROM (SELECT 1) AS one
            LEFT JOIN auth_failure AS f ON f.address = $1
            LEFT JOIN access_token AS t ON t.hash = $2
        """
    typealias Row = TokenFacts
    let address: String
    let tokenHash: Data

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(address)
        bindings.append(ByteBuffer(bytes: tokenHash))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (hasAccounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt) =
            try row.decode((Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self)
        return TokenFacts(
            hasAccounts: hasAccounts, windowStart: windowStart, failures: failures, tokenID: tokenID,
            account: account, expiresAt: expiresAt, lastUsedAt: lastUsedAt
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
