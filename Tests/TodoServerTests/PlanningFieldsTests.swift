import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// The fields `todo` plans with are stored as sent, filtered like any
/// field, and `q` finds a word of a todo's note.
struct PlanningFieldsTests {
    func ids(_ response: TestResponse) throws -> [String] {
        guard case .array(let items) = try response.json else { return [] }
        return items.compactMap { $0["id"]?.string }
    }

    @Test(arguments: Backend.allCases)
    func planningFieldsAreKeptAndTheNoteIsSearched(backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"""
                {"id":"1","title":"pay rent","dueDate":"2026-12-01","priority":"high","tags":["bills","home"],"note":"IBAN in the\nbank mail","repeat":"monthly"}
                """#)
            try await client.send(.post, "/todos", #"{"id":"2","title":"water plants","note":"the fern"}"#)
            let item = try await client.send(.get, "/todos/1").json
            #expect(item["dueDate"]?.string == "2026-12-01")
            #expect(item["repeat"]?.string == "monthly")
            guard case .array(let tags)? = item["tags"] else { Issue.record("tags are not an array"); return }
            #expect(tags.compactMap(\.string) == ["bills", "home"])
            #expect(try ids(await client.send(.get, "/todos?q=iban")) == ["1"])
            #expect(try ids(await client.send(.get, "/todos?q=the%20bank")) == [])
            #expect(try ids(await client.send(.get, "/todos?q=fern")) == ["2"])
            #expect(try ids(await client.send(.get, "/todos?priority=high")) == ["1"])
        }
    }
}
