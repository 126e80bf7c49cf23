import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// The json-server routes on `/todos`, through the router.
struct TodoRoutesTests {
    @Test(arguments: Backend.allCases)
    func postKeepsTheClientsIDAndAnswers201WithLocation(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let response = try await client.send(.post, "/todos", #"{"id":"a1","title":"Buy milk","completed":false}"#)
            #expect(response.status == .created)
            #expect(response.headers[.location] == "/todos/a1")
            #expect(response.headers[.eTag] == #""1""#)
            #expect(
                try response.json
                    == ["id": "a1", "title": "Buy milk", "completed": false, "version": 1, "updatedAt": "2026-11-21T09:30:00.000Z"]
            )
        }
    }

    @Test(arguments: Backend.allCases)
    func postWithoutAnIDGetsAGeneratedOne(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let response = try await client.send(.post, "/todos", #"{"title":"Walk"}"#)
            #expect(response.status == .created)
            #expect(try response.json["id"] == "id-1")
            #expect(response.headers[.location] == "/todos/id-1")
        }
    }

    @Test(arguments: Backend.allCases)
    func postWithATakenIDGets409AndNoDuplicate(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"a","title":"first"}"#)
            let second = try await client.send(.post, "/todos", #"{"id":"a","title":"second"}"#)
            #expect(second.status == .conflict)
            #expect(second.errorMessage?.contains("already exists") == true)
            let all = try await client.send(.get, "/todos").json
            #expect(all.count == 1)
            #expect(all[0]?["title"] == "first")
        }
    }

    @Test(arguments: Backend.allCases)
    func numericIDsAreKeptAsNumbersAndShareKeysWithStrings(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let created = try await client.send(.post, "/todos", #"{"id":7,"title":"seven"}"#)
            #expect(try created.json["id"] == 7)
            #expect(try await client.send(.get, "/todos/7").json["title"] == "seven")
            #expect(try await client.send(.post, "/todos", #"{"id":"7"}"#).status == .conflict)
        }
    }

    @Test(arguments: Backend.allCases)
    func getAllIsABareArrayInCreationOrderWithCursorAndCount(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            for title in ["a", "b", "c"] {
                try await client.send(.post, "/todos", #"{"title":"\#(title)"}"#)
            }
            let response = try await client.send(.get, "/todos")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.init("X-Cursor")!] == "3")
            #expect(response.headers[.init("X-Total-Count")!] == "3")
            let titles = try response.json
            #expect([titles[0]?["title"], titles[1]?["title"], titles[2]?["title"]] == ["a", "b", "c"])
        }
    }

    @Test(arguments: Backend.allCases)
    func getAllOnAnEmptyServerIsAnEmptyArray(_ backend: Backend) async throws {
        try await withServer(backend) { client async throws in
            #expect(try await client.send(.get, "/todos").text == "[]")
        }
    }

    @Test(arguments: Backend.allCases)
    func getOneAndMissingOne(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"t"}"#)
            let found = try await client.send(.get, "/todos/x")
            #expect(found.status == .ok)
            #expect(found.headers[.eTag] == #""1""#)
            let missing = try await client.send(.get, "/todos/nope")
            #expect(missing.status == .notFound)
            #expect(missing.errorMessage == "No todo has id nope.")
        }
    }

    @Test(arguments: Backend.allCases)
    func idsWithSpacesAndUnicodeRoundTrip(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let created = try await client.send(.post, "/todos", #"{"id":"my todo é","title":"t"}"#)
            let location = try #require(created.headers[.location])
            #expect(location == "/todos/my%20todo%20%C3%A9")
            #expect(try await client.send(.get, location).json["id"] == "my todo é")
        }
    }

    @Test(arguments: Backend.allCases)
    func getOneWithCurrentETagIs304(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x"}"#)
            let response = try await client.send(.get, "/todos/x", headers: [.ifNoneMatch: #""1""#])
            #expect(response.status == .notModified)
            #expect(try await client.send(.get, "/todos/x", headers: [.ifNoneMatch: #""0""#]).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func putReplacesEveryFieldAndKeepsTheID(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"old","completed":false,"note":"n"}"#)
            let response = try await client.send(.put, "/todos/x", #"{"id":"other","title":"new","completed":true}"#)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == #""2""#)
            #expect(try response.json.withoutServerFields == ["id": "x", "title": "new", "completed": true])
            #expect(try await client.send(.get, "/todos/x").json["version"] == 2)
            #expect(try await client.send(.get, "/todos/other").status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func patchMergesTopLevelFieldsOnly(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"t","completed":false,"meta":{"a":1,"b":2},"tag":"k"}"#)
            let response = try await client.send(.patch, "/todos/x", #"{"completed":true,"meta":{"c":3},"tag":null}"#)
            #expect(response.status == .ok)
            #expect(
                try response.json.withoutServerFields
                    == ["id": "x", "title": "t", "completed": true, "meta": ["c": 3], "tag": nil]
            )
            #expect(try response.json["version"] == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteAnswersTheDeletedItemThenItIsGone(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"t"}"#)
            let response = try await client.send(.delete, "/todos/x")
            #expect(response.status == .ok)
            #expect(try response.json["title"] == "t")
            #expect(response.headers[.eTag] == #""2""#)
            #expect(try await client.send(.get, "/todos/x").status == .notFound)
            #expect(try await client.send(.delete, "/todos/x").status == .notFound)
            #expect(try await client.send(.get, "/todos").text == "[]")
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeletedIDCanBeCreatedAgainWithAHigherVersion(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x"}"#)
            try await client.send(.delete, "/todos/x")
            let again = try await client.send(.post, "/todos", #"{"id":"x","title":"back"}"#)
            #expect(again.status == .created)
            #expect(again.headers[.eTag] == #""3""#)
        }
    }

    @Test(arguments: Backend.allCases)
    func healthAnswersOkOnceTheDatabaseAnswers(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
        }
    }

    @Test(arguments: Backend.allCases)
    func missingIDsOnWritesAre404WithAJSONBody(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            for method in [HTTPRequest.Method.put, .patch] {
                let response = try await client.send(method, "/todos/none", #"{"title":"t"}"#)
                #expect(response.status == .notFound)
                #expect(response.errorMessage != nil)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func unknownFieldsAreStoredAndReturnedUnchanged(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let body = #"{"id":"x","title":"t","userId":1,"price":1.50,"tags":["a",{"b":null}],"nested":{"deep":[true,false]}}"#
            try await client.send(.post, "/todos", body)
            let text = try await client.send(.get, "/todos/x").text
            switch backend {
            case .sqlite:
                #expect(text.hasPrefix(#"{"id":"x","title":"t","userId":1,"price":1.50,"tags":["a",{"b":null}],"nested":{"deep":[true,false]}"#))
            case .postgres:
                // jsonb keeps every value and a number's digits, not the order of keys or the spacing.
                #expect(try JSON(parsing: text).withoutServerFields == JSON(parsing: body))
                #expect(text.contains("1.50"))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func serverFieldsSentByTheClientAreIgnored(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let created = try await client.send(.post, "/todos", #"{"id":"x","version":99,"updatedAt":"1999"}"#)
            #expect(try created.json["version"] == 1)
            #expect(try created.json["updatedAt"] == "2026-11-21T09:30:00.000Z")
            let patched = try await client.send(.patch, "/todos/x", #"{"version":50}"#)
            #expect(try patched.json["version"] == 2)
        }
    }
}
