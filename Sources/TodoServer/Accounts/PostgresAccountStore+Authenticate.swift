import NIOCore
import PostgresNIO

// MARK: - Serving: the token check

extension PostgresAccountStore: AuthenticatingTodoReader {
    public func authenticate(token: [UInt8]?, address: String) async throws -> Authentication {
        let now = nowMilliseconds
        let row = try await database.rows(CheckToken(address: address, token: token)).first
        // Checked on every request, so the first `todo-server user add` locks
        // a running server at once, without a restart.
        return try await authentication(row.map(TokenFacts.init), address: address, now: now)
    }

    /// The token check and `GET /todos/:id`'s read in one statement, so the
    /// request costs one round trip to PostgreSQL instead of two.
    public func authenticate(token: [UInt8]?, address: String, reading id: String) async throws -> (Authentication, StoredTodo?) {
        let now = nowMilliseconds
        let row = try await database.rows(CheckTokenAndRead(address: address, token: token, id: id)).first
        let facts = row.map { TokenFacts(($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6)) }
        let authentication = try await authentication(facts, address: address, now: now)
        switch authentication {
        case .noAccounts, .account:
            let todo = row.flatMap { row in row.7.flatMap { body in row.8.map { StoredTodo(id: id, version: $0, json: body) } } }
            return (authentication, todo)
        case .throttled, .refused:
            return (authentication, nil)
        }
    }

    /// What the facts come to; counts a failure, or notes the token's use
    /// (at most once a minute, not on every request).
    private func authentication(_ facts: TokenFacts?, address: String, now: Int64) async throws -> Authentication {
        guard let facts, facts.hasAccounts else { return .noAccounts }
        if let windowStart = facts.windowStart, let failures = facts.failures,
            let seconds = Self.retryAfter(windowStart: windowStart, failures: failures, now: now)
        {
            return .throttled(retryAfter: seconds)
        }
        guard let tokenID = facts.tokenID, let account = facts.account, facts.expiresAt.map({ $0 > now }) ?? true else {
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

    init(_ row: CheckToken.Row) {
        (hasAccounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt) = row
    }
}

/// The token check: one row, whatever matches.
private struct CheckToken: PostgresPreparedStatement {
    static let sql = """
        SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0),
            f.window_start, f.failures, t.id, t.account, t.expires_at, t.last_used_at
        FROM (SELECT 1) AS one LEFT JOIN auth_failure AS f ON f.address = $1
            LEFT JOIN access_token AS t ON t.hash = $2
        """
    typealias Row = (Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?)
    let address: String
    let token: [UInt8]?

    func makeBindings() -> PostgresBindings { tokenBindings(address: address, token: token) }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The token check, and the todo `$3` of the token's account (or of the
/// single list when there is no token), which the caller uses only if the
/// check lets the request through.
private struct CheckTokenAndRead: PostgresPreparedStatement {
    static let sql = """
        SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0),
            f.window_start, f.failures, t.id, t.account, t.expires_at, t.last_used_at, i.body::text, i.version
        FROM (SELECT 1) AS one LEFT JOIN auth_failure AS f ON f.address = $1
            LEFT JOIN access_token AS t ON t.hash = $2
            LEFT JOIN item AS i ON i.account = coalesce(t.account, 0) AND i.id = $3 AND NOT i.deleted
        """
    typealias Row = (Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, String?, Int?)
    let address: String
    let token: [UInt8]?
    let id: String

    func makeBindings() -> PostgresBindings {
        var bindings = tokenBindings(address: address, token: token)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// `$1` the address, `$2` the token's hash (null without a token).
private func tokenBindings(address: String, token: [UInt8]?) -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 3)
    bindings.append(address)
    bindings.append(token.map { ByteBuffer(bytes: AccessToken.hash($0)) })
    return bindings
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
