import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// json-server's filters, search, sorting and paging on `GET /todos`.
struct QueryTests {
    /// Five todos: titles b, A, c, é, d; even ones completed.
    func seeded(_ backend: Backend, _ test: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
        try await withServer(backend) { client in
            for (index, title) in ["b", "A", "c", "École", "d"].enumerated() {
                try await client.send(.post, "/todos", #"{"id":"\#(index + 1)","title":"\#(title)","completed":\#(index % 2 == 1),"userId":\#(index % 2 + 1)}"#)
            }
            try await test(client)
        }
    }

    func ids(_ response: TestResponse) throws -> [String] {
        guard case .array(let items) = try response.json else { return [] }
        return items.compactMap { $0["id"]?.string }
    }

    @Test(arguments: Backend.allCases)
    func filtersByCompleted(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            #expect(try ids(await client.send(.get, "/todos?completed=true")) == ["2", "4"])
            #expect(try ids(await client.send(.get, "/todos?completed=false")) == ["1", "3", "5"])
        }
    }

    @Test(arguments: Backend.allCases)
    func filtersByAnyFieldAndRepeatedValues(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            #expect(try ids(await client.send(.get, "/todos?userId=2")) == ["2", "4"])
            #expect(try ids(await client.send(.get, "/todos?title=c")) == ["3"])
            #expect(try ids(await client.send(.get, "/todos?id=1&id=5")) == ["1", "5"])
            #expect(try ids(await client.send(.get, "/todos?title=c&completed=true")) == [])
        }
    }

    @Test(arguments: Backend.allCases)
    func searchIsACaseInsensitiveSubstring(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            #expect(try ids(await client.send(.get, "/todos?q=a")) == ["2"])
            #expect(try ids(await client.send(.get, "/todos?q=%C3%89COLE")) == ["4"])
            #expect(try ids(await client.send(.get, "/todos?q=col")) == ["4"])
        }
    }

    @Test(arguments: Backend.allCases)
    func sortsAscendingDescendingAndByOrder(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            #expect(try ids(await client.send(.get, "/todos?_sort=title")) == ["2", "1", "3", "5", "4"])
            #expect(try ids(await client.send(.get, "/todos?_sort=-title")) == ["4", "5", "3", "1", "2"])
            #expect(try ids(await client.send(.get, "/todos?_sort=title&_order=desc")) == ["4", "5", "3", "1", "2"])
            #expect(try ids(await client.send(.get, "/todos?_sort=-completed,title")) == ["2", "4", "1", "3", "5"])
        }
    }

    @Test(arguments: Backend.allCases)
    func pagesWithLimitAreBareArraysWithATotal(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            let response = try await client.send(.get, "/todos?_page=2&_limit=2")
            #expect(try ids(response) == ["3", "4"])
            #expect(response.headers[.init("X-Total-Count")!] == "5")
            #expect(try ids(await client.send(.get, "/todos?_limit=3")) == ["1", "2", "3"])
        }
    }

    @Test(arguments: Backend.allCases)
    func pagesWithPerPageUseJsonServerV1Envelope(_ backend: Backend) async throws {
        try await seeded(backend) { client async throws in
            let page = try await client.send(.get, "/todos?_page=3&_per_page=2").json
            #expect(page["first"] == 1)
            #expect(page["prev"] == 2)
            #expect(page["next"] == .null)
            #expect(page["last"] == 3)
            #expect(page["pages"] == 3)
            #expect(page["items"] == 5)
            #expect(page["data"]?.count == 1)
            #expect(page["data"]?[0]?["id"] == "5")
        }
    }

    @Test(arguments: ["_page=0", "_limit=x", "_per_page=2", "_sort=a.b", "_order=up", "_bogus=1", "_since=-1", "bad%20name=1"])
    func badQueryParametersAre400(_ query: String) async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/todos?\(query)")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage != nil)
        }
    }
}
