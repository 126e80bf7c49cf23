import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// Whatever a client sends, it gets a 4xx with a JSON error, and nothing half-written.
struct BadInputTests {
    @Test(arguments: [
        ("{", "not valid JSON"),
        ("", "empty"),
        ("[1,2]", "must be a JSON object, not an array"),
        (#""text""#, "must be a JSON object, not a string"),
        ("42", "must be a JSON object, not a number"),
        ("null", "must be a JSON object, not null"),
        (#"{"title":5}"#, #"Field "title" must be a string"#),
        (#"{"completed":"yes"}"#, #"Field "completed" must be true or false, not a string"#),
        (#"{"completed":1}"#, #"Field "completed" must be true or false, not a number"#),
        (#"{"completed":null}"#, #"Field "completed" must be true or false, not null"#),
        (#"{"id":true}"#, #"Field "id" must be"#),
        (#"{"id":""}"#, #"Field "id" must be"#),
        (#"{"id":1.5}"#, #"Field "id" must be"#),
        (#"{"a\"b":1}"#, "not supported"),
    ])
    func badBodiesAre400WithAMessage(_ body: String, _ message: String) async throws {
        try await withServer { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"t"}"#)
            for (method, uri) in [(HTTPRequest.Method.post, "/todos"), (.put, "/todos/x"), (.patch, "/todos/x")] {
                let response = try await client.send(method, uri, body)
                #expect(response.status == .badRequest, "\(method) \(body)")
                #expect(response.errorMessage?.contains(message) == true, "\(response.text)")
            }
            let unchanged = try await client.send(.get, "/todos/x")
            #expect(unchanged.headers[.eTag] == #""1""#)
            #expect(try await client.send(.get, "/todos").json.count == 1)
        }
    }

    @Test func invalidUTF8Is400() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(bytes: [0x7B, 0xFF, 0x7D]))
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("UTF-8") == true)
        }
    }

    @Test func anOversizedBodyIs413() async throws {
        try await withServer { client in
            let big = #"{"title":""# + String(repeating: "x", count: ServerOptions.defaultMaxBodySize) + #""}"#
            let response = try await client.send(.post, "/todos", big)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorMessage?.contains("\(ServerOptions.defaultMaxBodySize) bytes") == true)
            #expect(try await client.send(.get, "/todos").text == "[]")
        }
    }

    @Test func aBodyJustUnderTheLimitIsAccepted() async throws {
        try await withServer { client in
            let padding = String(repeating: "x", count: ServerOptions.defaultMaxBodySize - 20)
            let response = try await client.send(.post, "/todos", #"{"title":"\#(padding)"}"#)
            #expect(response.status == .created)
        }
    }

    @Test func unknownRoutesAre404WithJSON() async throws {
        try await withServer { client in
            for uri in ["/", "/posts", "/todos/a/b"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .notFound)
                #expect(response.errorMessage?.contains("No route") == true)
            }
        }
    }

    @Test func unknownMethodsAre405WithAllow() async throws {
        try await withServer { client in
            let onCollection = try await client.send(.delete, "/todos")
            #expect(onCollection.status == .methodNotAllowed)
            #expect(onCollection.headers[.allow] == "GET, HEAD, POST")
            #expect(onCollection.errorMessage != nil)
            let onItem = try await client.send(.post, "/todos/x", "{}")
            #expect(onItem.status == .methodNotAllowed)
            #expect(onItem.headers[.allow] == "GET, HEAD, PUT, PATCH, DELETE")
        }
    }

    @Test func noGarbageBodyCausesA500() async throws {
        let bodies = ["{}", "{\"title\":\"\u{0}\"}", "[", "}", "{\"a\":[[[[[[[[[]]]]]]]]]}", String(repeating: "[", count: 5000),
            "{\"id\":9223372036854775807}", "{\"id\":1e400}", "{\"title\":\"\\ud800\"}", "{\"\":1}", "{\"a\":1,\"a\":2}"]
        try await withServer { client in
            for body in bodies {
                for (method, uri) in [(HTTPRequest.Method.post, "/todos"), (.patch, "/todos/9223372036854775807")] {
                    let response = try await client.send(method, uri, body)
                    #expect(response.status.code < 500, "\(method) \(body.prefix(40)) -> \(response.status) \(response.text)")
                    #expect((try? response.json) != nil)
                }
            }
        }
    }
}
