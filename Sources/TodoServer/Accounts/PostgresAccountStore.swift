import Foundation
import NIOCore
import PostgresNIO

/// Accounts, tokens and failed authentications in the server's PostgreSQL
/// database, shared by every server on it.
public struct PostgresAccountStore: AccountStore {
    let database: PostgresDatabase
    let now: @Sendable () -> Date

    /// Wraps a migrated database (see `PostgresDatabase.migrate()`).
    public init(_ database: PostgresDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    var nowMilliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
    var logger: Logger { database.logger }
}

// MARK: - Serving

extension PostgresAccountStore {
    public func name(of account: AccountID) async throws -> String? {
        try await database.withConnection { connection in
            for try await name in try await connection.query("SELECT name FROM account WHERE id = \(account.rawValue)", logger: logger)
                .decode(String?.self)
            {
                return name
            }
            return nil
        }
    }

    public func hasAccounts() async throws -> Bool {
        try await database.withConnection { connection in
            for try await exists in try await connection.query("SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0)", logger: logger)
                .decode(Bool.self)
            {
                return exists
            }
            return false
        }
    }

    /// Seconds left in a window with too many failures, or nil.
    static func retryAfter(windowStart: Int64, failures: Int64, now: Int64) -> Int? {
        guard failures >= AuthThrottle.maxFailures else { return nil }
        let windowEnd = windowStart + AuthThrottle.windowMilliseconds
        guard windowEnd > now else { return nil }
        return Int((windowEnd - now + 999) / 1000)
    }

    public func retryAfter(address: String) async throws -> Int? {
        let now = nowMilliseconds
        return try await database.withConnection { connection in
            for try await (windowStart, failures) in try await connection.query(
                "SELECT window_start, failures FROM auth_failure WHERE address = \(address)",
                logger: logger
            ).decode((Int64, Int64).self) {
                return Self.retryAfter(windowStart: windowStart, failures: failures, now: now)
            }
            return nil
        }
    }

    public func recordFailedAuthentication(address: String) async throws -> Int? {
        let now = nowMilliseconds
        let windowStart = now - AuthThrottle.windowMilliseconds
        let limit = Int64(AuthThrottle.maxFailures)
        return try await database.transaction { connection -> Int? in
            // One statement checks and counts: the row's lock orders failures
            // at once, from several servers, and none counts past the limit.
            var counted = false
            for try await _ in try await connection.query(
                """
                INSERT INTO auth_failure AS f (address, window_start, failures) VALUES (\(address), \(now), 1)
                ON CONFLICT (address) DO UPDATE SET
                    failures = CASE WHEN f.window_start <= \(windowStart) THEN 1 ELSE f.failures + 1 END,
                    window_start = CASE WHEN f.window_start <= \(windowStart) THEN \(now) ELSE f.window_start END
                WHERE f.window_start <= \(windowStart) OR f.failures < \(limit)
                RETURNING f.failures
                """,
                logger: logger
            ).decode(Int64.self) {
                counted = true
            }
            try await connection.query("DELETE FROM auth_failure WHERE window_start <= \(windowStart)", logger: logger)
            guard !counted else { return nil }
            for try await (start, failures) in try await connection.query(
                "SELECT window_start, failures FROM auth_failure WHERE address = \(address)", logger: logger
            ).decode((Int64, Int64).self) {
                return Self.retryAfter(windowStart: start, failures: failures, now: now) ?? 1
            }
            return 1
        }
    }
}

// MARK: - Managing

extension PostgresAccountStore {
    public func addAccount(name: String, tokenLabel: String, expiresInDays: Int?) async throws -> String {
        try SQLiteAccountStore.check(name: name)
        try SQLiteAccountStore.check(label: tokenLabel)
        try SQLiteAccountStore.check(expiresInDays)
        let now = nowMilliseconds
        let token = AccessToken.make()
        try await database.transaction { connection in
            var account: Int64?
            for try await id in try await connection.query(
                "INSERT INTO account (name, created_at) VALUES (\(name), \(now)) ON CONFLICT (name) DO NOTHING RETURNING id",
                logger: logger
            ).decode(Int64.self) {
                account = id
            }
            guard let account else { throw AccountError.nameTaken(name) }
            try await Self.insertToken(connection, token, account: account, label: tokenLabel, now: now, expiresInDays: expiresInDays, logger: logger)
        }
        return token
    }

    public func issueToken(account name: String, label: String, expiresInDays: Int?) async throws -> String {
        try SQLiteAccountStore.check(label: label)
        try SQLiteAccountStore.check(expiresInDays)
        let now = nowMilliseconds
        let token = AccessToken.make()
        try await database.transaction { connection in
            let account = try await Self.accountID(connection, name: name, logger: logger)
            for try await taken in try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM access_token WHERE account = \(account) AND label = \(label))",
                logger: logger
            ).decode(Bool.self) where taken {
                throw AccountError.labelTaken(account: name, label: label)
            }
            try await Self.insertToken(connection, token, account: account, label: label, now: now, expiresInDays: expiresInDays, logger: logger)
        }
        return token
    }

    public func accounts() async throws -> [AccountSummary] {
        try await database.transaction("REPEATABLE READ") { connection in
            var accounts: [(id: Int64, name: String, createdAt: Int64)] = []
            for try await row in try await connection.query(
                "SELECT id, name, created_at FROM account WHERE id <> 0 ORDER BY name COLLATE \"C\"",
                logger: logger
            ).decode((Int64, String, Int64).self) {
                accounts.append(row)
            }
            var tokens: [Int64: [AccountSummary.Token]] = [:]
            for try await (account, label, createdAt, expiresAt, lastUsedAt) in try await connection.query(
                "SELECT account, label, created_at, expires_at, last_used_at FROM access_token ORDER BY created_at, label COLLATE \"C\"",
                logger: logger
            ).decode((Int64, String, Int64, Int64?, Int64?).self) {
                tokens[account, default: []].append(
                    AccountSummary.Token(
                        label: label,
                        createdAt: Self.date(createdAt),
                        expiresAt: expiresAt.map(Self.date),
                        lastUsedAt: lastUsedAt.map(Self.date)
                    )
                )
            }
            return accounts.map { AccountSummary(name: $0.name, createdAt: Self.date($0.createdAt), tokens: tokens[$0.id] ?? []) }
        }
    }

    public func revokeTokens(account name: String, label: String?) async throws -> Int {
        try await database.transaction { connection in
            let account = try await Self.accountID(connection, name: name, logger: logger)
            var count = 0
            for try await _ in try await connection.query(
                "DELETE FROM access_token WHERE account = \(account) AND (\(label)::text IS NULL OR label = \(label)) RETURNING id",
                logger: logger
            ) {
                count += 1
            }
            if let label, count == 0 { throw AccountError.noSuchToken(account: name, label: label) }
            return count
        }
    }

    public func removeAccount(name: String) async throws {
        try await database.transaction { connection in
            let account = try await Self.accountID(connection, name: name, logger: logger)
            // Its todos and tokens go with it (ON DELETE CASCADE).
            try await connection.query("DELETE FROM account WHERE id = \(account)", logger: logger)
        }
    }
}

// MARK: - Helpers

extension PostgresAccountStore {
    private static func accountID(_ connection: PostgresConnection, name: String, logger: Logger) async throws -> Int64 {
        for try await id in try await connection.query("SELECT id FROM account WHERE name = \(name)", logger: logger).decode(Int64.self) {
            return id
        }
        throw AccountError.noSuchAccount(name)
    }

    private static func insertToken(
        _ connection: PostgresConnection,
        _ token: String,
        account: Int64,
        label: String,
        now: Int64,
        expiresInDays: Int?,
        logger: Logger
    ) async throws {
        let hash = ByteBuffer(bytes: AccessToken.hash(token.utf8))
        let expiresAt = expiresInDays.map { now + Int64($0) * 86_400_000 }
        try await connection.query(
            """
            INSERT INTO access_token (account, label, hash, created_at, expires_at)
            VALUES (\(account), \(label), \(hash), \(now), \(expiresAt))
            """,
            logger: logger
        )
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
