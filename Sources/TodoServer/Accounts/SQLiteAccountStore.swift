import Foundation
import GRDB

/// Accounts, tokens and failed authentications in the server's SQLite database.
public struct SQLiteAccountStore: AccountStore {
    let dbWriter: any DatabaseWriter
    /// Where each request's token is looked up; without them, `dbWriter`.
    let pointReaders: PointReaders?
    let now: @Sendable () -> Date

    /// Wraps a migrated database (see `ServerDatabase`).
    public init(_ dbWriter: any DatabaseWriter, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(dbWriter, pointReaders: nil, now: now)
    }

    init(_ dbWriter: any DatabaseWriter, pointReaders: PointReaders?, now: @escaping @Sendable () -> Date) {
        self.dbWriter = dbWriter
        self.pointReaders = pointReaders
        self.now = now
    }

    /// Opens (creating if needed) the database at `path`.
    public static func open(path: String) throws -> SQLiteAccountStore {
        SQLiteAccountStore(try ServerDatabase.open(path: path))
    }

    var nowMilliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
}

// MARK: - Serving

extension SQLiteAccountStore {
    public func name(of account: AccountID) async throws -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT name FROM account WHERE id = ?", arguments: [account.rawValue]) }
    }

    public func hasAccounts() async throws -> Bool {
        try await read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0)") ?? false }
    }

    public func authenticate(token: [UInt8]?, address: String, list: ListAddress?) async throws -> (Authentication, ListAccess?) {
        let now = nowMilliseconds
        let hash = token.map(AccessToken.hash)
        // One statement on the calling thread, as `GET /todos/:id` reads: it
        // runs before every request of a server with accounts. Without a
        // list, its last two joins match nothing.
        let found = try readOneStatementNow {
            db -> (hasAccounts: Bool, failure: (windowStart: Int64, failures: Int)?, token: StoredToken?, list: ListAccess?) in
            let statement = try db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM account WHERE id <> 0),
                    f.windowStart, f.failures, t.id, t.account, t.expiresAt, t.lastUsedAt, o.id, s.role
                FROM (SELECT 1) LEFT JOIN authFailure AS f ON f.address = ? LEFT JOIN accessToken AS t ON t.hash = ?
                    LEFT JOIN account AS o ON o.name = ? AND o.id <> 0
                    LEFT JOIN listShare AS s ON s.owner = o.id AND s.list = ? AND s.member = t.account AND s.joinedAs IS NOT NULL
                """)
            let rows = try Row.fetchCursor(statement, arguments: [address, hash, list?.owner, list?.list])
            return try withExtendedLifetime(rows) {
                guard let row = try rows.next() else { return (false, nil, nil, nil) }
                let failure = (row[1] as Int64?).map { (windowStart: $0, failures: row[2] as Int) }
                let token = (row[3] as Int64?).map { StoredToken(id: $0, account: row[4], expiresAt: row[5], lastUsedAt: row[6]) }
                let access = list.flatMap { list in
                    ListAccess.found(list, owner: row[7], member: token?.account, role: row[8])
                }
                return (row[0], failure, token, access)
            }
        }
        // Checked on every request, so the first `todo-server user add` locks
        // a running server at once, without a restart.
        guard found.hasAccounts else { return (.noAccounts, nil) }
        // A valid token is served whatever the address's failures: behind one
        // NAT or a proxy, one client's revoked token must not lock out the rest.
        guard let token = found.token, token.expiresAt.map({ $0 > now }) ?? true else {
            // No token at all is a challenge (a client's first try), not a failure.
            guard hash != nil else { return (.refused, nil) }
            if let failure = found.failure, let seconds = Self.retryAfter(failure, now: now) {
                return (.throttled(retryAfter: seconds), nil)
            }
            if let seconds = try await recordFailedAuthentication(address: address) { return (.throttled(retryAfter: seconds), nil) }
            return (.refused, nil)
        }
        // "Last used" is a day-to-day fact, not a log: written at most once a
        // minute, so a busy token costs no write per request.
        if token.lastUsedAt.map({ $0 <= now - 60_000 }) ?? true {
            try await write { db in
                try db.execute(sql: "UPDATE accessToken SET lastUsedAt = ? WHERE id = ?", arguments: [now, token.id])
            }
        }
        return (.account(AccountID(token.account)), found.list)
    }

    public func access(_ account: AccountID, to address: ListAddress) async throws -> ListAccess? {
        try await read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT o.id, s.role FROM account AS o
                    LEFT JOIN listShare AS s ON s.owner = o.id AND s.list = ? AND s.member = ? AND s.joinedAs IS NOT NULL
                WHERE o.name = ? AND o.id <> 0
                """, arguments: [address.list, account.rawValue, address.owner])
            return row.flatMap { ListAccess.found(address, owner: $0[0], member: account.rawValue, role: $0[1]) }
        }
    }

    /// A token's row, less its hash.
    private struct StoredToken: Sendable {
        let id: Int64
        let account: Int64
        let expiresAt: Int64?
        let lastUsedAt: Int64?
    }

    /// Seconds left in a window with too many failures, or nil.
    private static func retryAfter(_ failure: (windowStart: Int64, failures: Int), now: Int64) -> Int? {
        guard failure.failures >= AuthThrottle.maxFailures else { return nil }
        let windowEnd = failure.windowStart + AuthThrottle.windowMilliseconds
        guard windowEnd > now else { return nil }
        return Int((windowEnd - now + 999) / 1000)
    }

    public func retryAfter(address: String) async throws -> Int? {
        let now = nowMilliseconds
        let found = try await read { db -> (windowStart: Int64, failures: Int)? in
            let statement = try db.cachedStatement(sql: "SELECT windowStart, failures FROM authFailure WHERE address = ?")
            return try Row.fetchOne(statement, arguments: [address]).map { ($0["windowStart"], $0["failures"]) }
        }
        return found.flatMap { Self.retryAfter($0, now: now) }
    }

    public func recordFailedAuthentication(address: String) async throws -> Int? {
        let now = nowMilliseconds
        let windowStart = now - AuthThrottle.windowMilliseconds
        return try await write { db -> Int? in
            // One statement checks and counts, so failures at once, from
            // several servers, never count past the limit.
            let counted = try Int.fetchOne(
                db,
                sql: """
                    INSERT INTO authFailure (address, windowStart, failures) VALUES (:address, :now, 1)
                    ON CONFLICT (address) DO UPDATE SET
                        failures = CASE WHEN windowStart <= :windowStart THEN 1 ELSE failures + 1 END,
                        windowStart = CASE WHEN windowStart <= :windowStart THEN :now ELSE windowStart END
                    WHERE windowStart <= :windowStart OR failures < :limit
                    RETURNING failures
                    """,
                arguments: ["address": address, "now": now, "windowStart": windowStart, "limit": AuthThrottle.maxFailures]
            )
            try db.execute(sql: "DELETE FROM authFailure WHERE windowStart <= ?", arguments: [windowStart])
            guard counted == nil else { return nil }
            let row = try Row.fetchOne(db, sql: "SELECT windowStart, failures FROM authFailure WHERE address = ?", arguments: [address])
            return row.flatMap { Self.retryAfter(($0["windowStart"], $0["failures"]), now: now) } ?? 1
        }
    }
}

// MARK: - Managing

extension SQLiteAccountStore {
    public func addAccount(name: String, tokenLabel: String, expiresInDays: Int?) async throws -> String {
        try Self.check(name: name)
        try Self.check(label: tokenLabel)
        try Self.check(expiresInDays)
        let now = nowMilliseconds
        let token = AccessToken.make()
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM account WHERE name = ?)", arguments: [name]) == false else {
                throw AccountError.nameTaken(name)
            }
            try db.execute(sql: "INSERT INTO account (name, createdAt) VALUES (?, ?)", arguments: [name, now])
            try Self.insertToken(db, token, account: db.lastInsertedRowID, label: tokenLabel, now: now, expiresInDays: expiresInDays)
        }
        return token
    }

    public func issueToken(account name: String, label: String, expiresInDays: Int?) async throws -> String {
        try Self.check(label: label)
        try Self.check(expiresInDays)
        let now = nowMilliseconds
        let token = AccessToken.make()
        try await write { db in
            let account = try Self.accountID(db, name: name)
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM accessToken WHERE account = ? AND label = ?)", arguments: [account, label]) == false
            else {
                throw AccountError.labelTaken(account: name, label: label)
            }
            try Self.insertToken(db, token, account: account, label: label, now: now, expiresInDays: expiresInDays)
        }
        return token
    }

    public func accounts() async throws -> [AccountSummary] {
        try await read { db in
            let accounts = try Row.fetchAll(db, sql: "SELECT id, name, createdAt FROM account WHERE id <> 0 ORDER BY name")
            let tokens = Dictionary(
                grouping: try Row.fetchAll(
                    db,
                    sql: "SELECT account, label, createdAt, expiresAt, lastUsedAt FROM accessToken ORDER BY createdAt, label"
                ),
                by: { $0["account"] as Int64 }
            )
            return accounts.map { account in
                AccountSummary(
                    name: account["name"],
                    createdAt: Self.date(account["createdAt"]),
                    tokens: (tokens[account["id"]] ?? []).map { token in
                        AccountSummary.Token(
                            label: token["label"],
                            createdAt: Self.date(token["createdAt"]),
                            expiresAt: (token["expiresAt"] as Int64?).map(Self.date),
                            lastUsedAt: (token["lastUsedAt"] as Int64?).map(Self.date)
                        )
                    }
                )
            }
        }
    }

    public func revokeTokens(account name: String, label: String?) async throws -> Int {
        try await write { db in
            let account = try Self.accountID(db, name: name)
            if let label {
                try db.execute(sql: "DELETE FROM accessToken WHERE account = ? AND label = ?", arguments: [account, label])
                guard db.changesCount == 1 else { throw AccountError.noSuchToken(account: name, label: label) }
                return 1
            }
            try db.execute(sql: "DELETE FROM accessToken WHERE account = ?", arguments: [account])
            return db.changesCount
        }
    }

    public func removeAccount(name: String) async throws {
        try await write { db in
            let account = try Self.accountID(db, name: name)
            // Its todos and tokens go with it (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [account])
        }
    }
}

// MARK: - Helpers

extension SQLiteAccountStore {
    /// One statement's read on the calling thread (see `SQLiteTodoRepository.readOneStatementNow`).
    private func readOneStatementNow<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            if let pointReaders {
                return try pointReaders.read(body)
            }
            return try dbWriter.unsafeRead(body)
        } catch {
            throw SQLiteTodoRepository.serverError(for: error)
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await SQLiteTodoRepository.mapErrors { try await dbWriter.read(body) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await SQLiteTodoRepository.mapErrors { try await dbWriter.write(body) }
    }

    static func accountID(_ db: Database, name: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else {
            throw AccountError.noSuchAccount(name)
        }
        return id
    }

    private static func insertToken(_ db: Database, _ token: String, account: Int64, label: String, now: Int64, expiresInDays: Int?) throws {
        try db.execute(
            sql: "INSERT INTO accessToken (account, label, hash, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [account, label, AccessToken.hash(token.utf8), now, expiresInDays.map { now + Int64($0) * 86_400_000 }]
        )
    }

    static func check(name: String) throws(AccountError) {
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_@".unicodeScalars.contains($0))
        }
        guard (1...64).contains(name.count), allowed else { throw .invalidName(name) }
    }

    static func check(label: String) throws(AccountError) {
        guard (1...64).contains(label.count), !label.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidLabel(label)
        }
    }

    static func check(_ expiresInDays: Int?) throws(AccountError) {
        if let days = expiresInDays, !(1...36_500).contains(days) { throw .invalidExpiry(days) }
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
