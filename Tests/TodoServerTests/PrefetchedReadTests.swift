import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
@testable import TodoServer

/// `GET /todos/:id` on PostgreSQL reads the todo in the statement that checks
/// the token (`AuthenticatingTodoReader`, a fast path): it answers every
/// request exactly as the general path does, a token check and then a read.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PrefetchedReadTests {
    /// The tokens a request may carry.
    enum Token: CaseIterable {
        case alice, bob, expired, unknown, none
    }

    @Test(arguments: [true, false])
    func theTokenCheckThatReadsTheTodoAnswersAsTheGeneralPath(withAccounts: Bool) async throws {
        let clock = TestClock()
        try await withTestDatabase(.postgres, clock: clock) { fastRepository, fastAccounts in
            try await withTestDatabase(.postgres, clock: clock) { plainRepository, plainAccounts in
                #expect((fastAccounts as? any AuthenticatingTodoReader) != nil)
                let fast = try await Self.prepare(fastRepository, fastAccounts, withAccounts: withAccounts, clock: clock)
                let plain = try await Self.prepare(plainRepository, PlainAccounts(store: plainAccounts), withAccounts: withAccounts, clock: clock)
                clock.advance(days: 2)
                try await makeApp(fastRepository, accounts: fastAccounts).test(.router) { fastClient in
                    try await makeApp(plainRepository, accounts: PlainAccounts(store: plainAccounts)).test(.router) { plainClient in
                        // Valid tokens first, then refused ones, until the address is throttled.
                        for token in Token.allCases {
                            for path in ["/todos/a", "/todos/b", "/todos/c", "/todos/%61", "/todos/a/", "/todos/", "/todos/%00"] {
                                for method in [HTTPRequest.Method.get, .head] {
                                    for ifNoneMatch in [nil, "\"1\"", "\"2\""] {
                                        var headers: HTTPFields = [:]
                                        headers[.ifNoneMatch] = ifNoneMatch
                                        let answers = [
                                            Answer(try await fastClient.send(method, path, headers: headers + fast.headers(token))),
                                            Answer(try await plainClient.send(method, path, headers: headers + plain.headers(token))),
                                        ]
                                        #expect(answers[0] == answers[1], "\(token) \(method) \(path) \(ifNoneMatch ?? "")")
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Point reads that arrive together share one statement (`PointReads`),
    /// and each still gets the answer it gets alone: its own account's todo,
    /// never the one of the request beside it.
    @Test func pointReadsThatArriveTogetherEachGetTheirOwnAnswer() async throws {
        let clock = TestClock()
        try await withTestDatabase(.postgres, clock: clock) { fastRepository, fastAccounts in
            try await withTestDatabase(.postgres, clock: clock) { plainRepository, plainAccounts in
                let fast = try await Self.prepare(fastRepository, fastAccounts, withAccounts: true, clock: clock)
                let plain = try await Self.prepare(plainRepository, PlainAccounts(store: plainAccounts), withAccounts: true, clock: clock)
                let pointReads = try #require(fastAccounts as? PostgresAccountStore).database.pointReads
                // Valid tokens on every path, and two refused requests a
                // round (under the ten failures that throttle the address).
                let requests = [Token.alice, .bob].flatMap { token in
                    ["/todos/a", "/todos/b", "/todos/c"].flatMap { path in Array(repeating: (token, path), count: 8) }
                } + [(.unknown, "/todos/a"), (.none, "/todos/a")]
                try await makeApp(fastRepository, accounts: fastAccounts).test(.router) { fastClient in
                    try await makeApp(plainRepository, accounts: PlainAccounts(store: plainAccounts)).test(.router) { plainClient in
                        var expected: [Answer] = []
                        for (token, path) in requests {
                            expected.append(Answer(try await plainClient.send(.get, path, headers: plain.headers(token))))
                        }
                        // Bounded: a machine slow enough to answer each read
                        // before the next arrives would never group them.
                        for _ in 1...4 where pointReads.largestGroup < 2 {
                            let answers = try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
                                for (index, (token, path)) in requests.enumerated() {
                                    group.addTask { (index, Answer(try await fastClient.send(.get, path, headers: fast.headers(token)))) }
                                }
                                var answers: [(Int, Answer)] = []
                                for try await answer in group { answers.append(answer) }
                                return answers.sorted { $0.0 < $1.0 }.map(\.1)
                            }
                            for (index, (token, path)) in requests.enumerated() {
                                #expect(answers[index] == expected[index], "\(token) \(path)")
                            }
                        }
                        #expect(pointReads.largestGroup > 1, "no two reads ever shared a statement")
                    }
                }
            }
        }
    }

    /// Tokens of one database, by the role they play.
    struct Tokens: Sendable {
        let tokens: [String: String]

        func headers(_ token: Token) -> HTTPFields {
            switch token {
            case .none: [:]
            case .unknown: bearer("todo_not-a-token-of-this-server")
            default: tokens["\(token)"].map(bearer) ?? [:]
            }
        }
    }

    /// The same history on each database: alice's `a` (patched to version
    /// 2) and deleted `b`, bob's own `a`, and a token of alice's that expires
    /// in a day; or, without accounts, the single list's `a` and `b`.
    private static func prepare(
        _ repository: any TodoRepository,
        _ accounts: any AccountStore,
        withAccounts: Bool,
        clock: TestClock
    ) async throws -> Tokens {
        var tokens: [String: String] = [:]
        if withAccounts {
            tokens["alice"] = try await accounts.addAccount(name: "alice", tokenLabel: "laptop", expiresInDays: nil)
            tokens["bob"] = try await accounts.addAccount(name: "bob", tokenLabel: "laptop", expiresInDays: nil)
            tokens["expired"] = try await accounts.issueToken(account: "alice", label: "old", expiresInDays: 1)
        }
        let seeded = Tokens(tokens: tokens)
        try await makeApp(repository, accounts: accounts).test(.router) { client in
            try await seed(client, seeded, withAccounts: withAccounts)
        }
        return seeded
    }

    private static func seed(_ client: any TestClientProtocol, _ tokens: Tokens, withAccounts: Bool) async throws {
        for (owner, body) in [(Token.alice, #"{"id":"a","title":"milk"}"#), (.alice, #"{"id":"b"}"#), (.bob, #"{"id":"a","title":"eggs"}"#)]
        where withAccounts || owner == .alice {
            #expect(try await client.send(.post, "/todos", body, headers: tokens.headers(owner)).status == .created)
        }
        #expect(try await client.send(.patch, "/todos/a", #"{"completed":true}"#, headers: tokens.headers(.alice)).status == .ok)
        #expect(try await client.send(.delete, "/todos/b", headers: tokens.headers(.alice)).status == .ok)
    }
}

/// The same account store without the combined read: the general path.
private struct PlainAccounts: AccountStore {
    let store: any AccountStore

    func hasAccounts() async throws -> Bool { try await store.hasAccounts() }
    func authenticate(token: [UInt8]?, address: String) async throws -> Authentication {
        try await store.authenticate(token: token, address: address)
    }
    func retryAfter(address: String) async throws -> Int? { try await store.retryAfter(address: address) }
    func recordFailedAuthentication(address: String) async throws { try await store.recordFailedAuthentication(address: address) }
    func addAccount(name: String, tokenLabel: String, expiresInDays: Int?) async throws -> String {
        try await store.addAccount(name: name, tokenLabel: tokenLabel, expiresInDays: expiresInDays)
    }
    func issueToken(account name: String, label: String, expiresInDays: Int?) async throws -> String {
        try await store.issueToken(account: name, label: label, expiresInDays: expiresInDays)
    }
    func accounts() async throws -> [AccountSummary] { try await store.accounts() }
    func revokeTokens(account name: String, label: String?) async throws -> Int {
        try await store.revokeTokens(account: name, label: label)
    }
    func removeAccount(name: String) async throws { try await store.removeAccount(name: name) }
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var all = lhs
    all.append(contentsOf: rhs)
    return all
}
