import PostgresNIO
import TodoCore

/// Shares in the `list_share` table (server_pg_0008). Each change is one
/// serializable transaction (retried when it collides), so its checks hold
/// whatever other servers on the database do at the same time.
extension PostgresAccountStore {
    public func share(list: String, of owner: AccountID, with member: String, role: ListRole) async throws {
        let list = try SQLiteAccountStore.listName(list)
        let now = nowMilliseconds
        try await database.transaction("SERIALIZABLE") { [logger] connection in
            var memberID: Int64?
            for try await id in try await connection.query("SELECT id FROM account WHERE name = \(member)", logger: logger).decode(Int64.self) {
                memberID = id
            }
            guard let memberID else { throw ShareRefusal.noSuchAccount(member) }
            guard memberID != owner.rawValue else { throw ShareRefusal.withOneself(list) }
            for try await from in try await connection.query("""
                SELECT a.name FROM list_share AS s JOIN account AS a ON a.id = s.owner WHERE s.member = \(owner.rawValue) AND s.joined_as = \(list)
                """, logger: logger).decode(String.self) {
                throw ShareRefusal.notTheOwner(list, owner: from)
            }
            var inserted = false
            for try await _ in try await connection.query("""
                INSERT INTO list_share (owner, list, member, role, created_at) VALUES (\(owner.rawValue), \(list), \(memberID), \(role.rawValue), \(now))
                ON CONFLICT (owner, list, member) DO NOTHING RETURNING 1
                """, logger: logger) {
                inserted = true
            }
            guard inserted else { throw ShareRefusal.sharedAlready(list, with: member) }
        }
    }

    public func unshare(list: String, of owner: AccountID, with member: String) async throws {
        let list = try SQLiteAccountStore.listName(list)
        try await database.transaction { [logger] connection in
            var removed = false
            for try await _ in try await connection.query("""
                DELETE FROM list_share WHERE owner = \(owner.rawValue) AND list = \(list)
                    AND member = (SELECT id FROM account WHERE name = \(member)) RETURNING 1
                """, logger: logger) {
                removed = true
            }
            guard removed else { throw ShareRefusal.notShared(list, with: member) }
        }
    }

    public func join(list: String, from owner: String, as name: String, member: AccountID) async throws {
        let (list, name) = (try SQLiteAccountStore.listName(list), try SQLiteAccountStore.listName(name))
        try await database.transaction("SERIALIZABLE") { [logger] connection in
            var found: String??
            for try await joinedAs in try await connection.query("""
                SELECT s.joined_as FROM list_share AS s JOIN account AS a ON a.id = s.owner
                WHERE a.name = \(owner) AND s.list = \(list) AND s.member = \(member.rawValue)
                """, logger: logger).decode(String?.self) {
                found = .some(joinedAs)
            }
            guard let found else { throw ShareRefusal.noInvitation(list, from: owner) }
            if let joinedAs = found { throw ShareRefusal.joinedAlready(list, from: owner, as: joinedAs) }
            for try await taken in try await connection.query("""
                SELECT EXISTS (SELECT 1 FROM list_share WHERE member = \(member.rawValue) AND joined_as = \(name))
                """, logger: logger).decode(Bool.self) where taken {
                throw ShareRefusal.nameTaken(name)
            }
            try await connection.query("""
                UPDATE list_share SET joined_as = \(name)
                WHERE list = \(list) AND member = \(member.rawValue) AND owner = (SELECT id FROM account WHERE name = \(owner))
                """, logger: logger)
        }
    }

    public func leave(_ name: String, member: AccountID) async throws {
        let name = try SQLiteAccountStore.listName(name)
        try await database.transaction { [logger] connection in
            var removed = false
            for try await _ in try await connection.query(
                "DELETE FROM list_share WHERE member = \(member.rawValue) AND joined_as = \(name) RETURNING 1", logger: logger
            ) {
                removed = true
            }
            guard removed else { throw ShareRefusal.notJoined(name) }
        }
    }

    public func shares(of account: AccountID) async throws -> ListShares {
        try await database.transaction("REPEATABLE READ") { [logger] connection in
            var shared: [SharedList] = []
            for try await (list, member, role, joined) in try await connection.query("""
                SELECT s.list, a.name, s.role, s.joined_as IS NOT NULL FROM list_share AS s JOIN account AS a ON a.id = s.member
                WHERE s.owner = \(account.rawValue) ORDER BY s.list COLLATE "C", a.name COLLATE "C"
                """, logger: logger).decode((String, String, String, Bool).self) {
                shared.append(SharedList(list: list, member: member, role: ListRole(rawValue: role) ?? .viewer, joined: joined))
            }
            var withMe: [ListSharedWithMe] = []
            for try await (list, owner, role, joinedAs) in try await connection.query("""
                SELECT s.list, a.name, s.role, s.joined_as FROM list_share AS s JOIN account AS a ON a.id = s.owner
                WHERE s.member = \(account.rawValue) ORDER BY a.name COLLATE "C", s.list COLLATE "C"
                """, logger: logger).decode((String, String, String, String?).self) {
                withMe.append(ListSharedWithMe(list: list, owner: owner, role: ListRole(rawValue: role) ?? .viewer, joinedAs: joinedAs))
            }
            return ListShares(shared: shared, withMe: withMe)
        }
    }
}
