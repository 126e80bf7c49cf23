import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServer

/// Each finding of issue 12, as the request that showed it: refused with a
/// 4xx saying why, and nothing changed.
struct HostileInputTests {
    // MARK: - 1. A page number that overflowed the offset

    @Test(arguments: ["_page=922337203685477582", "_page=4611686018427387905&_limit=2", "_page=9223372036854775807&_per_page=10000", "_page=1000000001"])
    func aHugePageIs400NotACrash(_ query: String) async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/todos?\(query)")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("_page must be a whole number from 1 to 1000000000") == true)
        }
    }

    @Test func theLastPageAllowedIsServed() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/todos?_page=\(TodoQuery.maxPage)&_per_page=\(TodoQuery.maxPageSize)")
            #expect(response.status == .ok)
            #expect(try response.json["data"] == [])
        }
    }

    // MARK: - 2. Deep nesting

    @Test func deepNestingIs400() async throws {
        let deep = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        let body = #"{"x":["# + Array(repeating: deep, count: 16).joined(separator: ",") + "]}"
        try await withServer { client in
            let response = try await client.send(.post, "/todos", body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("more than \(StrictJSONReader.maxDepth) deep") == true)
            #expect(try await client.send(.get, "/todos").text == "[]")
        }
    }

    // MARK: - 3 and 7. Sorts and filters that grew without bound

    @Test func tooManySortFieldsIs400() async throws {
        try await withServer { client in
            let allowed = (0..<TodoQuery.maxSortFields).map { "f\($0)" }.joined(separator: ",")
            #expect(try await client.send(.get, "/todos?_sort=\(allowed)").status == .ok)
            for count in [TodoQuery.maxSortFields + 1, 1999] {
                let response = try await client.send(.get, "/todos?_sort=" + (0..<count).map { "f\($0)" }.joined(separator: ","))
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains("at most \(TodoQuery.maxSortFields)") == true)
            }
        }
    }

    @Test func tooManyFiltersOrParametersIs400() async throws {
        try await withServer { client in
            let fields = (0..<TodoQuery.maxFilterFields).map { "f\($0)=1" }.joined(separator: "&")
            #expect(try await client.send(.get, "/todos?\(fields)").status == .ok)
            let values = (0..<TodoQuery.maxParameters).map { "id=\($0)" }.joined(separator: "&")
            #expect(try await client.send(.get, "/todos?\(values)").status == .ok)

            let tooManyFields = (0...TodoQuery.maxFilterFields).map { "f\($0)=1" }.joined(separator: "&")
            let fieldsResponse = try await client.send(.get, "/todos?\(tooManyFields)")
            #expect(fieldsResponse.status == .badRequest)
            #expect(fieldsResponse.errorMessage?.contains("at most \(TodoQuery.maxFilterFields)") == true)
            let thousand = (0..<1000).map { "f\($0)=\($0)" }.joined(separator: "&")
            let parametersResponse = try await client.send(.get, "/todos?\(thousand)")
            #expect(parametersResponse.status == .badRequest)
            #expect(parametersResponse.errorMessage?.contains("at most \(TodoQuery.maxParameters)") == true)
        }
    }

    @Test func aTodoHasAtMostAThousandFields() async throws {
        try await withServer { client in
            func body(_ count: Int) -> String { "{" + (0..<count).map { #""f\#($0)":\#($0)"# }.joined(separator: ",") + "}" }
            #expect(try await client.send(.post, "/todos", body(TodoPayload.maxFields)).status == .created)
            let response = try await client.send(.post, "/todos", body(TodoPayload.maxFields + 1))
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("at most \(TodoPayload.maxFields)") == true)
            #expect(try await client.send(.get, "/todos").json.count == 1)
        }
    }

    // MARK: - 4. Duplicate keys

    @Test func duplicateKeysAre400AndChangeNothing() async throws {
        try await withServer { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"t"}"#)
            let created = try await client.send(.post, "/todos", #"{"title":"ok","title":5,"completed":true,"completed":"yes"}"#)
            #expect(created.status == .badRequest)
            #expect(created.errorMessage?.contains(#"names "title" twice"#) == true)
            let patched = try await client.send(.patch, "/todos/x", #"{"id":"x","id":null}"#)
            #expect(patched.status == .badRequest)
            let escaped = try await client.send(.put, "/todos/x", #"{"title":"ok","\u0074itle":5}"#)
            #expect(escaped.status == .badRequest)
            let todo = try await client.send(.get, "/todos/x")
            #expect(try todo.json["id"] == "x")
            #expect(try todo.json["title"] == "t")
            #expect(todo.headers[.eTag] == #""1""#)
            #expect(try await client.send(.get, "/todos").json.count == 1)
        }
    }

    // MARK: - 6. Ids

    @Test func aNULInAnIdIs400AndReachesNoOtherTodo() async throws {
        try await withServer { client in
            try await client.send(.post, "/todos", #"{"id":"a","title":"t"}"#)
            let created = try await client.send(.post, "/todos", #"{"id":"a\u0000zzz"}"#)
            #expect(created.status == .badRequest)
            #expect(created.errorMessage?.contains("NUL") == true)
            for method in [HTTPRequest.Method.patch, .put] {
                let changed = try await client.send(method, "/todos/a%00zzz", #"{"title":"changed"}"#)
                #expect(changed.status == .badRequest)
            }
            #expect(try await client.send(.delete, "/todos/a%00zzz").status == .badRequest)
            #expect(try await client.send(.get, "/todos?id=a%00zzz").status == .badRequest)
            let todo = try await client.send(.get, "/todos/a")
            #expect(try todo.json["title"] == "t")
            #expect(todo.headers[.eTag] == #""1""#)
        }
    }

    @Test func idsAreLimitedInBytesNotCharacters() async throws {
        try await withServer { client in
            let accented = "e" + String(repeating: "\u{301}", count: 300_000)
            #expect(accented.count == 1)
            let response = try await client.send(.post, "/todos", #"{"id":"\#(accented)"}"#)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("256 bytes") == true)
            let longest = String(repeating: "é", count: 128)
            #expect(try await client.send(.post, "/todos", #"{"id":"\#(longest)"}"#).status == .created)
            #expect(try await client.send(.post, "/todos", #"{"id":"\#(longest)x"}"#).status == .badRequest)
            let inURL = String(repeating: "x", count: 257)
            #expect(try await client.send(.get, "/todos/\(inURL)").status == .badRequest)
            #expect(try await client.send(.get, "/todos").json.count == 1)
        }
    }

    // MARK: - 7. Encodings and JSON5

    @Test(arguments: [
        ([0xEF, 0xBB, 0xBF] + Array(#"{"title":"t"}"#.utf8), "byte order mark"),
        (Array(#"{"title":"t"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "UTF-16"),
        ([0xFF, 0xFE] + Array(#"{"title":"t"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "UTF-8"),
        (Array(#"{"a":1,}"#.utf8), "not valid JSON"),
        (Array(#"{"a":[1,2,],}"#.utf8), "not valid JSON"),
    ] as [([UInt8], String)])
    func bodiesSQLiteOrFoundationReadDifferentlyAre400(_ body: [UInt8], _ message: String) async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/todos", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains(message) == true, "\(response.text)")
            #expect(try await client.send(.get, "/todos").text == "[]")
        }
    }

    // MARK: - 8. Smaller

    @Test func numbersKeepTheirExactTextAndThoseNoDoubleHoldsAreRefused() async throws {
        try await withServer { client in
            let created = try await client.send(.post, "/todos", #"{"id":"n","huge":1e300,"tiny":-1E-300,"long":12345678901234567000000}"#)
            #expect(created.status == .created)
            let text = try await client.send(.get, "/todos/n").text
            for number in ["1e300", "-1E-300", "12345678901234567000000"] {
                #expect(text.contains(":\(number),") || text.contains(":\(number)}"), "\(text)")
            }
            for number in ["1e999", "-1E-999", "12345678901234567890123"] {
                let refused = try await client.send(.post, "/todos", #"{"id":"m","x":\#(number)}"#)
                #expect(refused.status == .badRequest)
                #expect(refused.errorMessage?.contains("more digits than a double holds") == true, "\(refused.text)")
            }
        }
    }

    @Test func headAnswersEveryGetRouteWithoutABody() async throws {
        try await withServer { client in
            try await client.send(.post, "/todos", #"{"id":"a","title":"t"}"#)
            for path in ["/todos", "/todos/a", "/health", "/todos?_sort=title"] {
                let get = try await client.send(.get, path)
                let head = try await client.send(.head, path)
                #expect(head.status == .ok, "\(path)")
                #expect(head.body.readableBytes == 0)
                #expect(head.headers[.contentLength] == String(get.body.readableBytes))
                #expect(head.headers[.eTag] == get.headers[.eTag])
            }
            let missing = try await client.send(.head, "/todos/nope")
            #expect(missing.status == .notFound)
            #expect(missing.body.readableBytes == 0)
        }
    }

    @Test func theBearerSchemeIsCaseInsensitive() async throws {
        try await withServer(options: ServerOptions(token: "s3cret", requestLogLevel: .trace)) { client async throws in
            for header in ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "bEaReR  s3cret"] {
                #expect(try await client.send(.get, "/todos", headers: [.authorization: header]).status == .ok, "\(header)")
            }
            for header in ["Bearers3cret", "Bearer", "Bearer ", "earer s3cret", "Basic s3cret", "bearer s3cre"] {
                #expect(try await client.send(.get, "/todos", headers: [.authorization: header]).status == .unauthorized, "\(header)")
            }
        }
    }

    @Test func queryValuesNeverReachTheLog() async throws {
        let recorder = LogRecorder()
        let app = buildApplication(
            repository: try makeRepository(),
            options: ServerOptions(requestLogLevel: .info),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            logger: recorder.logger
        )
        try await app.test(.router) { client in
            try await client.send(.get, "/todos?access_token=SECRET-1&q=x")
            try await client.send(.get, "/todos/a?token=SECRET-2", headers: [.authorization: "Bearer SECRET-3"])
        }
        let log = recorder.text
        #expect(log.contains("/todos?access_token=…&q=…"), "\(log)")
        #expect(!log.contains("SECRET"), "\(log)")
    }
}
