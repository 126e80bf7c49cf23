import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// `POST /todos/_batch`: several writes in one request, each applied whole or
/// not at all and answered on its own.
struct BatchTests {
    @Test(arguments: Backend.allCases)
    func eachOperationGetsItsOwnResultAndOnlyFailedOnesChangeNothing(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"kept","title":"old"}"#)
            try await client.send(.post, "/todos", #"{"id":"gone","title":"delete me"}"#)
            let response = try await client.send(.post, "/todos/_batch", """
                {"operations": [
                    {"method": "POST", "body": {"id": "new", "title": "added", "n": 1.50}},
                    {"method": "PATCH", "id": "kept", "ifMatch": 1, "body": {"title": "patched"}},
                    {"method": "PATCH", "id": "kept", "ifMatch": 1, "body": {"title": "stale"}},
                    {"method": "DELETE", "id": "gone"},
                    {"method": "DELETE", "id": "never"},
                    {"method": "POST", "body": {"id": "kept"}},
                    {"method": "PUT", "id": "new", "ifMatch": "*", "body": {"title": "replaced"}}
                ]}
                """)
            #expect(response.status == .ok)
            let results = try response.json["results"]
            #expect((0..<7).map { results?[$0]?["status"] } == [201, 200, 412, 200, 404, 409, 200])
            #expect(results?[0]?["item"]?["title"] == "added")
            #expect(results?[2]?["error"] != nil && results?[2]?["item"] == nil)
            #expect(try await client.send(.get, "/todos/kept").json["title"] == "patched")
            #expect(try await client.send(.get, "/todos/gone").status == .notFound)
            let replaced = try await client.send(.get, "/todos/new")
            #expect(try replaced.json["title"] == "replaced" && replaced.headers[.eTag] == #""2""#)
            // The feed has every change, each with its own place.
            let feed = try await client.send(.get, "/todos?_since=0").json
            #expect(feed["items"].map { if case .array(let items) = $0 { items.count } else { 0 } } == 2)
            #expect(feed["deleted"]?[0]?["id"] == "gone")
        }
    }

    @Test(arguments: Backend.allCases)
    func aNumberKeepsItsTextThroughABatch(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos/_batch", #"{"operations":[{"method":"POST","body":{"id":"n","x":1.50,"y":1e300}}]}"#)
            let text = try await client.send(.get, "/todos/n").text
            // jsonb keeps a number's digits (1.50) but writes an exponent out in full.
            #expect(text.contains("1.50") && (backend == .postgres || text.contains("1e300")))
        }
    }

    static let badBatches: [(String, String)] = [
        (#"[]"#, "operations"),
        (#"{"operations": {}}"#, "operations"),
        (#"{"operations": [{"method": "GET", "id": "a"}]}"#, "Operation 1"),
        (#"{"operations": [{"method": "POST", "body": {"title": 5}}]}"#, "title"),
        (#"{"operations": [{"method": "PATCH", "body": {}}]}"#, "needs the \"id\""),
        (#"{"operations": [{"method": "POST", "id": "a", "body": {}}]}"#, "takes no \"id\""),
        (#"{"operations": [{"method": "DELETE", "id": "a", "body": {}}]}"#, "takes no \"body\""),
        (#"{"operations": [{"method": "DELETE", "id": "a", "ifMatch": "3"}]}"#, "ifMatch"),
        (#"{"operations": [{"method": "DELETE", "id": "a", "extra": 1}]}"#, "not a field"),
        (#"{"operations": [{"method": "DELETE", "id": "a\u0000b"}]}"#, "NUL"),
        (#"{"operations": [{"method": "POST", "method": "DELETE", "body": {}}]}"#, "twice"),
        (#"{"operations": [1]}"#, "Operation 1"),
    ]

    @Test(arguments: badBatches)
    func aBadBatchIsA400NamingWhatIsWrongAndChangesNothing(body: String, message: String) async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/todos/_batch", #"{"operations": [{"method":"POST","body":{"id":"first"}}], "x": 0}"#)
            #expect(try response.json["results"]?[0]?["status"] == 201)
            let bad = try await client.send(.post, "/todos/_batch", body)
            #expect(bad.status == .badRequest, "\(body)")
            #expect(bad.errorMessage?.contains(message) == true, "\(body): \(bad.errorMessage ?? "")")
            let list = try await client.send(.get, "/todos").json
            #expect(list[0]?["id"] == "first" && list[1] == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func tooManyOperationsIsA413(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let operations = Array(repeating: #"{"method":"DELETE","id":"a"}"#, count: 1_001).joined(separator: ",")
            let response = try await client.send(.post, "/todos/_batch", #"{"operations":[\#(operations)]}"#)
            #expect(response.status == .contentTooLarge)
        }
    }
}
