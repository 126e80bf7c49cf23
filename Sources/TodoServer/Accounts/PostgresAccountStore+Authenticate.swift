import Foundation
import NIOCore
import PostgresNIO

// MARK: - Serving: the token check

extension PostgresAccountStore: AuthenticatingTodoReader {
    public func authenticate(token: [UInt8]?, address: String) async throws -> Authentication {
        // Checked on every request, so the first `todo-server user add` locks
        // a running server at once, without a restart. Gathered with the
        // point reads of the moment (`PointReads`); the todo it reads, none
        // (no id is empty), goes unused.
        try await authenticate(token: token, address: address, reading: "").0
    }

    /// The token check and `GET /todos/:id`'s read in one statement, so the
    /// request costs one round trip to PostgreSQL instead of two; and the
    /// point reads that arrive together share that statement and its round
    /// trip (`PointReads`).
    public func authenticate(token: [UInt8]?, address: String, reading id: String) async throws -> (Authentication, StoredTodo?) {
        let now = nowMilliseconds
        let read = PointRead(address: address, tokenHash: ByteBuffer(bytes: token.map { AccessToken.hash($0) } ?? Data()), id: id)
        let row = try await database.pointReads.run(read, on: database)
        let facts = TokenFacts(row)
        let authentication = try await authentication(facts, address: address, now: now)
        switch authentication {
        case .noAccounts, .account:
            let todo = row.7.flatMap { body in row.8.map { StoredTodo(id: id, version: $0, json: body) } }
            return (authentication, todo)
        case .throttled, .refused:
            return (authentication, nil)
        }
    }

    /// What the facts come to; counts a failure, or notes the token's use
    /// (at most once a minute, not on every request).
    private func authentication(_ facts: TokenFacts?, address: String, now: Int64) async throws -> Authentication {
        guard let facts, facts.hasAccounts else { return .noAccounts }
        // A valid token is served whatever the address's failures: behind one
        // NAT or a proxy, one client's revoked token must not lock out the rest.
        guard let tokenID = facts.tokenID, let account = facts.account, facts.expiresAt.map({ $0 > now }) ?? true else {
            if let windowStart = facts.windowStart, let failures = facts.failures,
                let seconds = Self.retryAfter(windowStart: windowStart, failures: failures, now: now)
            {
                return .throttled(retryAfter: seconds)
            }
            try await recordFailedAuthentication(address: address)
            return .refused
        }
        if facts.lastUsedAt.map({ $0 <= now - 60_000 }) ?? true {
            _ = try await database.rows(NoteTokenUse(tokenID: tokenID, now: now))
        }
        return .account(AccountID(account))
    }
}

/// An account store that can read a todo in the statement that checks the
/// token: where each statement is a round trip, `GET /todos/:id` with a token
/// then costs one instead of two.
public protocol AuthenticatingTodoReader: AccountStore {
    /// `authenticate(token:address:)`, and with `.noAccounts` or `.account`
    /// the live todo `id` of that account (the single list for `.noAccounts`),
    /// or nil when there is none.
    func authenticate(token: [UInt8]?, address: String, reading id: String) async throws -> (Authentication, StoredTodo?)
}

/// What the token check reads: whether accounts exist, the address's
/// failures, and the token's row.
private struct TokenFacts {
    let hasAccounts: Bool
    let windowStart: Int64?
    let failures: Int64?
    let tokenID: Int64?
    let account: Int64?
    let expiresAt: Int64?
    let lastUsedAt: Int64?

    init(_ row: PointRead.Row) {
        (hasAccounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt, _, _) = row
    }
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
