import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// A shared list's routes (`/lists/OWNER/LIST/todos`), on both backends:
/// its members read and write its todos and nothing else of the owner's;
/// a viewer only reads; anyone else gets the 404 of a list that is not
/// there; a member's feed holds the list's changes and its departures only.
struct SharedListRouteTests {
    /// mum's todos: two on shopping, one on her inbox, one on health; dad
    /// joined shopping as an editor, gran as a viewer; ann is invited to nothing.
    func withFamilyList(
        _ backend: Backend,
        _ test: @Sendable (any TestClientProtocol, _ mum: HTTPFields, _ dad: HTTPFields, _ gran: HTTPFields, _ ann: HTTPFields) async throws -> Void
    ) async throws {
        try await withAccountsServer(["mum", "dad", "gran", "ann"], backend: backend) { client, tokens, _ in
            let (mum, dad, gran, ann) = (bearer(tokens[0]), bearer(tokens[1]), bearer(tokens[2]), bearer(tokens[3]))
            for body in [
                #"{"id":"milk","title":"milk","project":"shopping"}"#,
                #"{"id":"eggs","title":"eggs","project":"shopping.weekly"}"#,
                #"{"id":"doctor","title":"doctor 10am"}"#,
                #"{"id":"pills","title":"pills","project":"health"}"#,
            ] {
                #expect(try await client.send(.post, "/todos", body, headers: mum).status == .created)
            }
            #expect(try await client.send(.put, "/shares/shopping/dad", headers: mum).status == .created)
            #expect(try await client.send(.put, "/shares/shopping/gran", #"{"role":"viewer"}"#, headers: mum).status == .created)
            #expect(try await client.send(.put, "/joined/shopping", #"{"owner":"mum","list":"shopping"}"#, headers: dad).status == .created)
            #expect(try await client.send(.put, "/joined/mums-shopping", #"{"owner":"mum","list":"shopping"}"#, headers: gran).status == .created)
            try await test(client, mum, dad, gran, ann)
        }
    }

    static func ids(_ response: TestResponse) throws -> [String] {
        try ids(response.text)
    }

    /// The ids of a listing's todos, sorted.
    static func ids(_ listing: String) throws -> [String] {
        guard case .array(let todos) = try JSON(parsing: listing) else { return [] }
        return todos.compactMap { $0["id"]?.string }.sorted()
    }

    @Test(arguments: Backend.allCases)
    func anEditorReadsAndWritesTheListAndNothingElseOfTheOwners(_ backend: Backend) async throws {
        try await withFamilyList(backend) { client, mum, dad, _, _ in
            let list = "/lists/mum/shopping/todos"
            #expect(try Self.ids(try await client.send(.get, list, headers: dad)) == ["eggs", "milk"])
            #expect(try await client.send(.get, "\(list)/milk", headers: dad).json["title"]?.string == "milk")
            #expect(try await client.send(.get, "\(list)?q=doctor", headers: dad).json == .array([]))
            // The owner's other todos are not there, by any route of the list.
            for uri in ["\(list)/doctor", "\(list)/pills", "/lists/mum/inbox/todos", "/lists/mum/health/todos/pills"] {
                let response = try await client.send(.get, uri, headers: dad)
                #expect(response.status == .notFound, "GET \(uri): \(response.status) \(response.text)")
                #expect(!response.text.contains("doctor 10am"))
            }
            // dad adds and edits on the list; mum sees it in her own todos.
            let bread = try await client.send(.post, list, #"{"id":"bread","title":"bread","project":"shopping"}"#, headers: dad)
            #expect(bread.status == .created && bread.headers[.location] == "/lists/mum/shopping/todos/bread", "\(bread.headers)")
            #expect(try await client.send(.patch, "\(list)/milk", #"{"completed":true}"#, headers: dad).status == .ok)
            #expect(try await client.send(.get, "/todos/milk", headers: mum).json["completed"] == .bool(true))
            #expect(try await client.send(.get, "/todos/bread", headers: mum).status == .ok)
            let before = try await client.send(.get, "/todos", headers: mum).text
            // Writes that would take a todo off the list, or reach one not on it, change nothing.
            let refused: [(HTTPRequest.Method, String, String?, HTTPResponse.Status, String)] = [
                (.patch, "\(list)/milk", #"{"project":"health"}"#, .init(code: 422), "stays on it"),
                (.put, "\(list)/milk", #"{"title":"milk"}"#, .init(code: 422), "delete it here and create it there"),
                (.post, list, #"{"id":"saw","title":"saw","project":"home"}"#, .init(code: 422), "stays on it"),
                (.post, list, #"{"id":"nails","title":"nails"}"#, .init(code: 422), "stays on it"),
                (.patch, "\(list)/doctor", #"{"project":"shopping"}"#, .notFound, "doctor"),
                (.put, "\(list)/pills", #"{"title":"pills","project":"shopping"}"#, .notFound, "pills"),
                (.delete, "\(list)/doctor", nil, .notFound, "doctor"),
            ]
            for (method, uri, body, status, says) in refused {
                let response = try await client.send(method, uri, body, headers: dad)
                #expect(response.status == status, "\(method) \(uri): \(response.status) \(response.text)")
                #expect(response.errorMessage?.contains(says) == true, "\(method) \(uri): \(response.text)")
            }
            // A batch answers each on its own: the create on the list is kept, the others not.
            let batch = try await client.send(.post, "\(list)/_batch", #"""
                {"operations":[{"method":"POST","body":{"id":"jam","title":"jam","project":"shopping.weekly"}},
                {"method":"POST","body":{"id":"saw","title":"saw","project":"home"}},
                {"method":"PATCH","id":"doctor","body":{"project":"shopping"}}]}
                """#, headers: dad)
            let statuses = try batch.json["results"].map { results in (0..<results.count).map { results[$0]?["status"] } }
            #expect(statuses == [.number(201), .number(422), .number(404)], "\(batch.text)")
            #expect(try await client.send(.delete, "/todos/jam", headers: mum).status == .ok)
            #expect(try Self.ids(try await client.send(.get, "/todos", headers: mum)) == Self.ids(before))
            #expect(try await client.send(.get, "/todos/doctor", headers: mum).json["project"] == nil)
            // The owner may use the list's routes too; a delete there is hers to make.
            #expect(try await client.send(.delete, "\(list)/bread", headers: mum).status == .ok)
            #expect(try Self.ids(try await client.send(.get, list, headers: mum)) == ["eggs", "milk"])
        }
    }

    @Test(arguments: Backend.allCases)
    func aViewerOnlyReadsAndAnyoneElseFindsNoList(_ backend: Backend) async throws {
        try await withFamilyList(backend) { client, mum, dad, gran, ann in
            let list = "/lists/mum/shopping/todos"
            #expect(try Self.ids(try await client.send(.get, list, headers: gran)) == ["eggs", "milk"])
            let before = try await client.send(.get, "/todos", headers: mum).text
            let writes: [(HTTPRequest.Method, String, String?)] = [
                (.post, list, #"{"id":"cake","title":"cake","project":"shopping"}"#),
                (.patch, "\(list)/milk", #"{"completed":true}"#),
                (.put, "\(list)/milk", #"{"title":"oat milk","project":"shopping"}"#),
                (.delete, "\(list)/milk", nil),
                (.post, "\(list)/_batch", #"{"operations":[{"method":"DELETE","id":"milk"}]}"#),
            ]
            for (method, uri, body) in writes {
                let response = try await client.send(method, uri, body, headers: gran)
                #expect(response.status == .forbidden, "\(method) \(uri): \(response.status)")
                #expect(response.errorMessage?.contains("shopping is mum's list, shared with you read-only") == true, "\(response.text)")
            }
            // Whoever has not joined, and every other list or owner, gets the same 404.
            let strangers: [(HTTPFields, String)] = [
                (ann, list), (ann, "\(list)/milk"), (ann, "\(list)?_since=0"), (dad, "/lists/mum/health/todos"),
                (dad, "/lists/nobody/shopping/todos"), (dad, "/lists/mum/home.garden/todos"), (dad, "/lists/gran/shopping/todos"),
            ]
            for (headers, uri) in strangers {
                let response = try await client.send(.get, uri, headers: headers)
                #expect(response.status == .notFound, "GET \(uri): \(response.status) \(response.text)")
                #expect(!response.text.contains("milk"), "\(response.text)")
            }
            let write = try await client.send(.post, list, #"{"id":"x","title":"x","project":"shopping"}"#, headers: ann)
            #expect(write.status == .notFound && write.errorMessage?.contains("GET /shares") == true, "\(write.text)")
            #expect(try await client.send(.get, list).status == .unauthorized)
            #expect(try await client.send(.get, "/todos", headers: mum).text == before)
            // An invitation not yet accepted is no membership; unsharing ends one at once.
            #expect(try await client.send(.put, "/shares/shopping/ann", headers: mum).status == .created)
            #expect(try await client.send(.get, list, headers: ann).status == .notFound)
            #expect(try await client.send(.delete, "/shares/shopping/dad", headers: mum).status == .noContent)
            #expect(try await client.send(.get, list, headers: dad).status == .notFound)
            #expect(try await client.send(.delete, "/joined/mums-shopping", headers: gran).status == .noContent)
            #expect(try await client.send(.get, list, headers: gran).status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func aMembersFeedHoldsTheListsChangesAndItsDeparturesOnly(_ backend: Backend) async throws {
        try await withFamilyList(backend) { client, mum, dad, _, _ in
            let list = "/lists/mum/shopping/todos"
            func feed(since cursor: String) async throws -> JSON {
                let response = try await client.send(.get, "\(list)?_since=\(cursor)", headers: dad)
                #expect(response.status == .ok, "\(response.text)")
                return try response.json
            }
            let first = try await feed(since: "0")
            #expect(first["items"]?.count == 2 && first["deleted"] == .array([]), "\(first)")
            var cursor = try #require(first["cursor"]?.string)
            // mum's own todos change: nothing for dad.
            #expect(try await client.send(.patch, "/todos/doctor", #"{"title":"doctor 11am"}"#, headers: mum).status == .ok)
            let quiet = try await feed(since: cursor)
            #expect(quiet["items"] == .array([]) && quiet["deleted"] == .array([]), "\(quiet)")
            cursor = try #require(quiet["cursor"]?.string)
            // milk moves to mum's health list: for dad it is gone, and nothing says where.
            #expect(try await client.send(.patch, "/todos/milk", #"{"project":"health","title":"milk thistle"}"#, headers: mum).status == .ok)
            let moved = try await feed(since: cursor)
            #expect(moved["items"] == .array([]), "\(moved)")
            #expect(moved["deleted"] == .array([.object(["id": .string("milk"), "deleted": .bool(true)])]), "\(moved)")
            cursor = try #require(moved["cursor"]?.string)
            #expect(try await client.send(.get, "\(list)/milk", headers: dad).status == .notFound)
            // Back on the list: a change again, no departure.
            #expect(try await client.send(.patch, "/todos/milk", #"{"project":"shopping","title":"milk"}"#, headers: mum).status == .ok)
            let back = try await feed(since: cursor)
            #expect(back["items"]?[0]?["id"]?.string == "milk" && back["deleted"] == .array([]), "\(back)")
            cursor = try #require(back["cursor"]?.string)
            // Deleted, by its owner or by a member: a departure either way.
            #expect(try await client.send(.delete, "/todos/milk", headers: mum).status == .ok)
            #expect(try await client.send(.delete, "\(list)/eggs", headers: dad).status == .ok)
            let gone = try await feed(since: cursor)
            #expect(gone["items"] == .array([]), "\(gone)")
            #expect(gone["deleted"]?.count == 2, "\(gone)")
            // A page at a time: `_limit` bounds the feed, departures included.
            let paged = try await client.send(.get, "\(list)?_since=\(cursor)&_limit=1", headers: dad).json
            #expect(paged["deleted"]?.count == 1 && paged["more"] == .bool(true), "\(paged)")
            // mum's own feed is as ever: every change of hers, deletions as tombstones.
            let mine = try await client.send(.get, "/todos?_since=0", headers: mum).json
            #expect(mine["deleted"]?.count == 2 && mine["items"]?.count == 2, "\(mine)")
        }
    }

    @Test(arguments: Backend.allCases)
    func aTodosListIsTheTopLevelOfItsProjectAsText(_ backend: Backend) async throws {
        try await withAccountsServer(["mum"], backend: backend) { client, tokens, _ in
            let mum = bearer(tokens[0])
            let bodies = [
                #"{"id":"a","project":" home.garden"}"#, #"{"id":"b","project":"home"}"#, #"{"id":"c","project":3}"#,
                #"{"id":"d","project":""}"#, #"{"id":"e","project":".x"}"#, #"{"id":"f","project":null}"#,
                #"{"id":"g","tags":["home"]}"#, #"{"id":"h","project":"héllo.wörld"}"#,
            ]
            for body in bodies {
                let response = try await client.send(.post, "/todos", body, headers: mum)
                #expect(response.status == .created, "\(body): \(response.text)")
            }
            #expect(try Self.ids(try await client.send(.get, "/lists/mum/home/todos", headers: mum)) == ["a", "b"])
            #expect(try Self.ids(try await client.send(.get, "/lists/mum/inbox/todos", headers: mum)) == ["c", "d", "e", "f", "g"])
            #expect(try Self.ids(try await client.send(.get, "/lists/mum/h%C3%A9llo/todos", headers: mum)) == ["h"])
        }
    }
}

