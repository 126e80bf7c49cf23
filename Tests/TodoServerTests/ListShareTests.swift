import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// Sharing a list between accounts (`/shares`, `/joined`), on both
/// backends: the family's shopping list from invitation to leaving, and
/// every mistake answered with its status and a line saying what to do.
struct ListShareTests {
    /// mum, dad and gran, each with a token.
    func withFamily(_ backend: Backend, _ test: @Sendable (any TestClientProtocol, _ mum: HTTPFields, _ dad: HTTPFields, _ gran: HTTPFields) async throws -> Void) async throws {
        try await withAccountsServer(["mum", "dad", "gran"], backend: backend) { client, tokens, _ in
            try await test(client, bearer(tokens[0]), bearer(tokens[1]), bearer(tokens[2]))
        }
    }

    @Test(arguments: Backend.allCases)
    func mumSharesShoppingDadJoinsAndLeaves(_ backend: Backend) async throws {
        try await withFamily(backend) { client, mum, dad, gran in
            #expect(try await client.send(.put, "/shares/shopping/dad", headers: mum).status == .created)
            #expect(try await client.send(.put, "/shares/shopping/gran", #"{"role":"viewer"}"#, headers: mum).status == .created)
            let mine = try await client.send(.get, "/shares", headers: mum).json
            #expect(mine["shared"] == (try JSON(parsing: #"""
                [{"joined":false,"list":"shopping","member":"dad","role":"editor"},{"joined":false,"list":"shopping","member":"gran","role":"viewer"}]
                """#)))
            #expect(mine["sharedWithMe"] == .array([]))
            #expect(mine["account"]?.string == "mum")
            // Dad sees the invitation, and joins it under a name of his own.
            let waiting = try await client.send(.get, "/shares", headers: dad).json
            #expect(waiting["sharedWithMe"] == (try JSON(parsing: #"[{"joinedAs":null,"list":"shopping","owner":"mum","role":"editor"}]"#)))
            #expect(try await client.send(.put, "/joined/family-shopping", #"{"owner":"mum","list":"shopping"}"#, headers: dad).status == .created)
            #expect(try await client.send(.get, "/shares", headers: dad).json["sharedWithMe"]?[0]?["joinedAs"]?.string == "family-shopping")
            #expect(try await client.send(.get, "/shares", headers: mum).json["shared"]?[0]?["joined"] == .bool(true))
            // Gran's view of it is hers alone; she shares nothing.
            #expect(try await client.send(.get, "/shares", headers: gran).json["shared"] == .array([]))
            // Dad leaves; mum unshares gran's.
            #expect(try await client.send(.delete, "/joined/family-shopping", headers: dad).status == .noContent)
            #expect(try await client.send(.delete, "/shares/shopping/gran", headers: mum).status == .noContent)
            #expect(try await client.send(.get, "/shares", headers: mum).json["shared"] == .array([]))
            #expect(try await client.send(.get, "/shares", headers: gran).json["sharedWithMe"] == .array([]))
        }
    }

    @Test(arguments: Backend.allCases)
    func mistakesAreRefusedWithWhatToDoAndChangeNothing(_ backend: Backend) async throws {
        try await withFamily(backend) { client, mum, dad, gran in
            #expect(try await client.send(.put, "/shares/shopping/dad", headers: mum).status == .created)
            #expect(try await client.send(.put, "/joined/shopping", #"{"owner":"mum","list":"shopping"}"#, headers: dad).status == .created)
            let before = try await client.send(.get, "/shares", headers: mum).text
            let cases: [(HTTPRequest.Method, String, String?, HTTPFields, HTTPResponse.Status, String)] = [
                (.put, "/shares/shopping/nobody", nil, mum, .notFound, "No account is named nobody"),
                (.put, "/shares/shopping/dad", nil, mum, .conflict, "already shared with dad"),
                (.put, "/shares/shopping/mum", nil, mum, .badRequest, "your own list"),
                (.put, "/shares/home.garden/dad", nil, mum, .badRequest, "is not a list"),
                (.put, "/shares/shopping/gran", #"{"role":"owner"}"#, mum, .badRequest, #""editor" or "viewer""#),
                (.put, "/shares/shopping/gran", "[1]", mum, .badRequest, "not a JSON object"),
                // Dad joined mum's shopping: he cannot share it on.
                (.put, "/shares/shopping/gran", nil, dad, .forbidden, "mum's list, shared with you"),
                (.delete, "/shares/shopping/gran", nil, mum, .notFound, "not shared with gran"),
                (.put, "/joined/groceries", #"{"owner":"mum","list":"shopping"}"#, dad, .conflict, "joined mum's shopping already, as shopping"),
                (.put, "/joined/shopping", #"{"owner":"mum","list":"shopping"}"#, gran, .notFound, "mum has not shared a list shopping with you"),
                (.put, "/joined/shopping", #"{"owner":"mum"}"#, gran, .badRequest, "names the list to join"),
                (.delete, "/joined/shopping", nil, gran, .notFound, "joined no list named shopping"),
            ]
            for (method, uri, body, headers, status, says) in cases {
                let response = try await client.send(method, uri, body, headers: headers)
                #expect(response.status == status, "\(method) \(uri): \(response.status) \(response.text)")
                #expect(response.errorMessage?.contains(says) == true, "\(method) \(uri): \(response.text)")
            }
            #expect(try await client.send(.get, "/shares", headers: mum).text == before)
            // A second invitation to a list of the same name, from gran: dad joins it under another name only.
            #expect(try await client.send(.put, "/shares/shopping/dad", headers: gran).status == .created)
            let taken = try await client.send(.put, "/joined/shopping", #"{"owner":"gran","list":"shopping"}"#, headers: dad)
            #expect(taken.status == .conflict && taken.errorMessage?.contains("join this one under another name") == true, "\(taken.text)")
            #expect(try await client.send(.put, "/joined/gran-shopping", #"{"owner":"gran","list":"shopping"}"#, headers: dad).status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func removingAnAccountEndsItsShares(_ backend: Backend) async throws {
        try await withAccountsServer(["mum", "dad"], backend: backend) { client, tokens, accounts in
            #expect(try await client.send(.put, "/shares/shopping/dad", headers: bearer(tokens[0])).status == .created)
            try await accounts.removeAccount(name: "mum")
            #expect(try await client.send(.get, "/shares", headers: bearer(tokens[1])).json["sharedWithMe"] == .array([]))
        }
    }

    @Test func theSingleListSharesNothing() async throws {
        try await withTestDatabase(.sqlite) { repository, accounts in
            // No account yet: the server serves the single list, which shares nothing.
            try await makeApp(repository, accounts: accounts).test(.router) { client in
                let refused = try await client.send(.put, "/shares/shopping/dad")
                #expect(refused.status == .forbidden && refused.errorMessage?.contains("todo-server user add NAME") == true, "\(refused.text)")
            }
        }
    }
}
