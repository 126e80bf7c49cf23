import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServer

/// Accounts: each token reaches its own account's todos, feed and ids only.
struct AccountTests {
    @Test(arguments: Backend.allCases)
    func twoAccountsMayBothHaveTodo1AndNeitherReachesTheOthers(_ backend: Backend) async throws {
        try await withAccountsServer(["alice", "bob"], backend: backend) { client, tokens, _ in
            let (alice, bob) = (bearer(tokens[0]), bearer(tokens[1]))
            #expect(try await client.send(.post, "/todos", #"{"id":1,"title":"alice's"}"#, headers: alice).status == .created)
            #expect(try await client.send(.post, "/todos", #"{"id":1,"title":"bob's"}"#, headers: bob).status == .created)
            #expect(try await client.send(.post, "/todos", #"{"id":"only-alice"}"#, headers: alice).status == .created)

            #expect(try await client.send(.get, "/todos/1", headers: alice).json["title"] == "alice's")
            #expect(try await client.send(.get, "/todos/1", headers: bob).json["title"] == "bob's")
            // Another account's todo is missing, never forbidden.
            for method: HTTPRequest.Method in [.get, .head, .put, .patch, .delete] {
                let response = try await client.send(method, "/todos/only-alice", method == .put || method == .patch ? "{}" : nil, headers: bob)
                #expect(response.status == .notFound, "\(method)")
            }
            let bobsList = try await client.send(.get, "/todos", headers: bob)
            #expect(try bobsList.json.count == 1)
            #expect(bobsList.headers[.init("X-Total-Count")!] == "1")
            // Bob's feed has his one change: alice's writes do not move his cursor.
            #expect(bobsList.headers[.init("X-Cursor")!] == "1")
            #expect(try await client.send(.get, "/todos?_since=0", headers: alice).json["cursor"] == "2")
            #expect(try await client.send(.get, "/todos", headers: alice).json.count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func theFirstAccountLocksARunningOpenServerAtOnce(_ backend: Backend) async throws {
        try await withAccountsServer([], backend: backend) { client, _, accounts in
            #expect(try await client.send(.post, "/todos", #"{"id":"before"}"#).status == .created)
            #expect(try await client.send(.get, "/todos", headers: bearer("todo_anything")).status == .ok)
            let token = try await accounts.addAccount(name: "alice", tokenLabel: "default", expiresInDays: nil)
            #expect(try await client.send(.get, "/todos").status == .unauthorized)
            let alices = try await client.send(.get, "/todos", headers: bearer(token))
            #expect(alices.status == .ok)
            // The single list's todos stay apart: no account reaches them.
            #expect(try alices.json.count == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func unknownRevokedAndExpiredTokensGetTheSame401(_ backend: Backend) async throws {
        let clock = TestClock()
        try await withAccountsServer(["alice"], backend: backend, clock: clock) { client, tokens, accounts in
            let revoked = try await accounts.issueToken(account: "alice", label: "laptop", expiresInDays: nil)
            let expiring = try await accounts.issueToken(account: "alice", label: "phone", expiresInDays: 1)
            #expect(try await client.send(.get, "/todos", headers: bearer(revoked)).status == .ok)
            #expect(try await accounts.revokeTokens(account: "alice", label: "laptop") == 1)
            #expect(try await client.send(.get, "/todos", headers: bearer(expiring)).status == .ok)
            clock.advance(days: 1)

            var answers: Set<String> = []
            for headers in [bearer(revoked), bearer(expiring), bearer("todo_unknown"), [:], [.authorization: "Basic YQ=="]] {
                let response = try await client.send(.get, "/todos", headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
                answers.insert(response.text)
            }
            #expect(answers.count == 1)
            #expect(try await client.send(.get, "/todos", headers: bearer(tokens[0])).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func afterTenFailuresFromAnAddressItGets429UntilTheMinutePasses(_ backend: Backend) async throws {
        let clock = TestClock()
        try await withAccountsServer(["alice"], backend: backend, clock: clock) { client, tokens, accounts in
            for _ in 0..<AuthThrottle.maxFailures {
                #expect(try await client.send(.get, "/todos", headers: bearer("todo_guess")).status == .unauthorized)
            }
            let refused = try await client.send(.get, "/todos", headers: bearer("todo_guess"))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "60")
            #expect(refused.errorMessage?.contains("Too many failed authentications") == true)
            // A valid token is served all the while: behind one NAT or proxy,
            // one client's revoked token must not lock the others out.
            #expect(try await client.send(.get, "/todos", headers: bearer(tokens[0])).status == .ok)
            // Another address is not affected.
            #expect(try await accounts.retryAfter(address: "192.0.2.7") == nil)

            clock.advance(seconds: 59)
            #expect(try await client.send(.get, "/todos", headers: bearer("todo_guess")).headers[.retryAfter] == "1")
            clock.advance(seconds: 1)
            #expect(try await client.send(.get, "/todos", headers: bearer("todo_guess")).status == .unauthorized)
        }
    }

    @Test func theFailureCountIsSharedThroughTheDatabase() async throws {
        let clock = TestClock()
        let database = try ServerDatabase.inMemory()
        let one = SQLiteAccountStore(database, now: { clock.now })
        let other = SQLiteAccountStore(database, now: { clock.now })
        for index in 0..<AuthThrottle.maxFailures {
            #expect(try await (index.isMultiple(of: 2) ? one : other).recordFailedAuthentication(address: "198.51.100.1") == nil)
        }
        // The limit is reached through both: the next failure is not counted, and waits.
        #expect(try await one.recordFailedAuthentication(address: "198.51.100.1") == 60)
        #expect(try await one.retryAfter(address: "198.51.100.1") == 60)
        #expect(try await other.retryAfter(address: "198.51.100.1") == 60)
    }

    @Test(arguments: Backend.allCases)
    func listShowsLabelsAndDatesAndRemoveTakesTheTodos(_ backend: Backend) async throws {
        let clock = TestClock()
        try await withAccountsServer(["alice", "bob"], backend: backend, clock: clock) { client, tokens, accounts in
            #expect(try await client.send(.post, "/todos", #"{"id":"a"}"#, headers: bearer(tokens[0])).status == .created)
            _ = try await accounts.issueToken(account: "alice", label: "phone", expiresInDays: 7)
            let listed = try await accounts.accounts()
            #expect(listed.map(\.name) == ["alice", "bob"])
            #expect(listed[0].tokens.map(\.label) == ["default", "phone"])
            #expect(listed[0].tokens[0].lastUsedAt == testStart)
            #expect(listed[0].tokens[1].lastUsedAt == nil)
            #expect(listed[0].tokens[1].expiresAt == testStart + 7 * 86_400)

            try await accounts.removeAccount(name: "alice")
            #expect(try await client.send(.get, "/todos", headers: bearer(tokens[0])).status == .unauthorized)
            #expect(try await client.send(.get, "/todos", headers: bearer(tokens[1])).status == .ok)
            #expect(try await accounts.accounts().map(\.name) == ["bob"])
        }
    }

    @Test func tokensAreLongRandomAndStoredOnlyAsAHash() async throws {
        let database = try ServerDatabase.inMemory()
        let accounts = SQLiteAccountStore(database)
        let token = try await accounts.addAccount(name: "alice", tokenLabel: "default", expiresInDays: nil)
        #expect(token.hasPrefix("todo_"))
        #expect(token.count == 45)
        #expect(try await accounts.issueToken(account: "alice", label: "other", expiresInDays: nil) != token)
        let stored = try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM accessToken") }
        #expect(stored.allSatisfy { row in !row.databaseValues.contains { $0.description.contains(token.dropFirst(5)) } })
        #expect(stored.first?["hash"] == AccessToken.hash(token.utf8))
    }

    @Test func mistakesAreTypedErrors() async throws {
        let accounts = SQLiteAccountStore(try ServerDatabase.inMemory())
        _ = try await accounts.addAccount(name: "alice", tokenLabel: "default", expiresInDays: nil)
        await #expect(throws: AccountError.nameTaken("alice")) { try await accounts.addAccount(name: "alice", tokenLabel: "x", expiresInDays: nil) }
        await #expect(throws: AccountError.invalidName("a b")) { try await accounts.addAccount(name: "a b", tokenLabel: "x", expiresInDays: nil) }
        await #expect(throws: AccountError.noSuchAccount("carol")) { try await accounts.issueToken(account: "carol", label: "x", expiresInDays: nil) }
        await #expect(throws: AccountError.labelTaken(account: "alice", label: "default")) {
            try await accounts.issueToken(account: "alice", label: "default", expiresInDays: nil)
        }
        await #expect(throws: AccountError.noSuchToken(account: "alice", label: "nope")) { try await accounts.revokeTokens(account: "alice", label: "nope") }
        await #expect(throws: AccountError.invalidExpiry(0)) { try await accounts.issueToken(account: "alice", label: "y", expiresInDays: 0) }
        await #expect(throws: AccountError.noSuchAccount("carol")) { try await accounts.removeAccount(name: "carol") }
    }

    @Test func todosWrittenBeforeAccountsStayInTheSingleList() throws {
        let queue = try DatabaseQueue()
        try ServerDatabase.migrator.migrate(queue, upTo: "server_0001_create_item")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO item (id, body, version, updatedAt, changeSeq) VALUES ('a', '{"id":"a","version":1}', 1, 0, 1);
                UPDATE feed SET lastChangeSeq = 1;
                """)
        }
        try ServerDatabase.migrate(queue, path: ":memory:")
        let cursor = try queue.read { db in try Int.fetchOne(db, sql: "SELECT lastChangeSeq FROM account WHERE id = 0") }
        let account = try queue.read { db in try Int.fetchOne(db, sql: "SELECT account FROM item WHERE id = 'a'") }
        #expect(cursor == 1)
        #expect(account == 0)
    }

    /// A resource stored before its text carried the todo's version (the
    /// schema as server_0003 first landed) keeps its text, and is rewritten
    /// from the todo's fields when next served: version 0, which no todo has.
    @Test func calendarTextStoredBeforeVersionsIsRewrittenNotLost() async throws {
        let queue = try DatabaseQueue()
        try ServerDatabase.migrator.migrate(queue, upTo: "server_0003_calendar_objects")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO item (account, id, body, version, updatedAt, changeSeq) VALUES (0, 'a', '{"id":"a","title":"milk","version":2}', 2, 0, 2);
                UPDATE account SET lastChangeSeq = 2 WHERE id = 0;
                INSERT INTO calendarObject (account, name, id, ics) VALUES (0, 'phone.ics', 'a', 'BEGIN:VCALENDAR\r\nX-KEPT:1\r\nEND:VCALENDAR\r\n');
                """)
        }
        try ServerDatabase.migrate(queue, path: ":memory:")
        let objects = try await SQLiteTodoRepository(queue).calendarObjects(ids: ["a"])
        let object = try #require(objects.first)
        #expect(object.name == "phone.ics")
        #expect(object.ics?.contains("X-KEPT:1") == true)
        #expect(object.icsVersion == 0)
        #expect(!object.servesStoredText)
    }

    /// A database made by a server built from bcac5e2 up to c77eba2 has
    /// `calendarObject.version` from its server_0003, and no server_0004:
    /// the upgrade records server_0004 without adding the column twice.
    @Test func aDatabaseWhoseCalendarObjectsHadVersionsAlreadyUpgrades() throws {
        let queue = try DatabaseQueue()
        try ServerDatabase.migrate(queue, path: ":memory:")
        try queue.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'server_0004_calendar_object_versions'")
            try db.execute(sql: "INSERT INTO calendarObject (account, name, id, ics, version) VALUES (0, 'a.ics', 'a', 'BEGIN:VCALENDAR', 3)")
        }
        try ServerDatabase.migrate(queue, path: ":memory:")
        let applied = try queue.read { db in try ServerDatabase.migrator.appliedIdentifiers(db) }
        #expect(applied.contains("server_0004_calendar_object_versions"))
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT version FROM calendarObject") } == 3)
    }
}

/// A hundred wrong tokens at once from one address, on each backend: exactly
/// the limit are counted and answered 401, the rest 429, and a valid token
/// sent among them is served.
struct ThrottleUnderConcurrencyTests {
    @Test(arguments: Backend.allCases)
    func ofAHundredFailuresAtOnceOnlyTheLimitAreCounted(_ backend: Backend) async throws {
        try await withAccountsServer(["alice"], backend: backend) { client, tokens, _ in
            let statuses = try await withThrowingTaskGroup(of: (valid: Bool, status: Int).self) { group in
                for index in 0..<101 {
                    let valid = index == 50
                    group.addTask {
                        let response = try await client.send(.get, "/todos", headers: bearer(valid ? tokens[0] : "todo_guess\(index)"))
                        return (valid, response.status.code)
                    }
                }
                var statuses: [(valid: Bool, status: Int)] = []
                for try await answer in group { statuses.append(answer) }
                return statuses
            }
            // A request that waited too long for a database connection (a
            // loaded machine, PostgreSQL's pool) is answered 503 before its
            // token is read: not counted, as a 429 is not.
            let failures = statuses.filter { !$0.valid }.map(\.status)
            #expect(failures.filter { $0 == 401 }.count == AuthThrottle.maxFailures, "\(failures)")
            #expect(failures.filter { $0 == 429 || $0 == 503 }.count == 100 - AuthThrottle.maxFailures, "\(failures)")
            var valid = statuses.first { $0.valid }?.status
            if valid == 503 { valid = Int(try await client.send(.get, "/todos", headers: bearer(tokens[0])).status.code) }
            #expect(valid == 200)
        }
    }
}
