import GRDB
import TodoCore

/// Shares in the `listShare` table (server_0006), each change one transaction.
extension SQLiteAccountStore {
    public func share(list: String, of owner: AccountID, with member: String, role: ListRole) async throws {
        let list = try Self.listName(list)
        let now = nowMilliseconds
        try await write { db in
            guard let memberID = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [member]) else {
                throw ShareRefusal.noSuchAccount(member)
            }
            guard memberID != owner.rawValue else { throw ShareRefusal.withOneself(list) }
            if let from = try String.fetchOne(db, sql: """
                SELECT a.name FROM listShare AS s JOIN account AS a ON a.id = s.owner WHERE s.member = ? AND s.joinedAs = ?
                """, arguments: [owner.rawValue, list]) {
                throw ShareRefusal.notTheOwner(list, owner: from)
            }
            try db.execute(sql: """
                INSERT INTO listShare (owner, list, member, role, createdAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (owner, list, member) DO NOTHING
                """, arguments: [owner.rawValue, list, memberID, role.rawValue, now])
            guard db.changesCount == 1 else { throw ShareRefusal.sharedAlready(list, with: member) }
        }
    }

    public func unshare(list: String, of owner: AccountID, with member: String) async throws {
        let list = try Self.listName(list)
        try await write { db in
            try db.execute(sql: """
                DELETE FROM listShare WHERE owner = ? AND list = ? AND member = (SELECT id FROM account WHERE name = ?)
                """, arguments: [owner.rawValue, list, member])
            guard db.changesCount == 1 else { throw ShareRefusal.notShared(list, with: member) }
        }
    }

    public func join(list: String, from owner: String, as name: String, member: AccountID) async throws {
        let (list, name) = (try Self.listName(list), try Self.listName(name))
        try await write { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT s.joinedAs FROM listShare AS s JOIN account AS a ON a.id = s.owner
                WHERE a.name = ? AND s.list = ? AND s.member = ?
                """, arguments: [owner, list, member.rawValue])
            guard let row else { throw ShareRefusal.noInvitation(list, from: owner) }
            if let joinedAs = row[0] as String? { throw ShareRefusal.joinedAlready(list, from: owner, as: joinedAs) }
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM listShare WHERE member = ? AND joinedAs = ?)",
                                    arguments: [member.rawValue, name]) == false else { throw ShareRefusal.nameTaken(name) }
            try db.execute(sql: """
                UPDATE listShare SET joinedAs = ? WHERE list = ? AND member = ? AND owner = (SELECT id FROM account WHERE name = ?)
                """, arguments: [name, list, member.rawValue, owner])
        }
    }

    public func leave(_ name: String, member: AccountID) async throws {
        let name = try Self.listName(name)
        try await write { db in
            try db.execute(sql: "DELETE FROM listShare WHERE member = ? AND joinedAs = ?", arguments: [member.rawValue, name])
            guard db.changesCount == 1 else { throw ShareRefusal.notJoined(name) }
        }
    }

    public func shares(of account: AccountID) async throws -> ListShares {
        try await read { db in
            let shared = try Row.fetchAll(db, sql: """
                SELECT s.list, a.name, s.role, s.joinedAs IS NOT NULL FROM listShare AS s JOIN account AS a ON a.id = s.member
                WHERE s.owner = ? ORDER BY s.list, a.name
                """, arguments: [account.rawValue]).map { row in
                SharedList(list: row[0], member: row[1], role: ListRole(rawValue: row[2]) ?? .viewer, joined: row[3])
            }
            let withMe = try Row.fetchAll(db, sql: """
                SELECT s.list, a.name, s.role, s.joinedAs FROM listShare AS s JOIN account AS a ON a.id = s.owner
                WHERE s.member = ? ORDER BY a.name, s.list
                """, arguments: [account.rawValue]).map { row in
                ListSharedWithMe(list: row[0], owner: row[1], role: ListRole(rawValue: row[2]) ?? .viewer, joinedAs: row[3])
            }
            return ListShares(shared: shared, withMe: withMe)
        }
    }

    /// A list's name as sent: 400 unless it is one (`ListName`).
    static func listName(_ raw: String) throws -> String {
        do {
            return try ListName.validated(raw)
        } catch {
            throw ShareRefusal.badList(raw)
        }
    }
}
