import Foundation
import Hummingbird
import HummingbirdTesting
import PropertyBased
import TestSupport
import Testing
import TodoServer

/// Two accounts on one server behave exactly as two servers of one list
/// each: whatever one sends, on any route, the other's answers do not change
/// by a byte, so neither reads, changes or learns of the other's todos (not
/// even through a cursor, a count, a version or a 409).
struct IsolationPropertyTests {
    /// Cases per backend: `TODO_ISOLATION_CASES` sets both (more for a
    /// deeper search); by default 100 on SQLite and 10 on PostgreSQL, whose
    /// cases each make three databases.
    static func cases(_ backend: Backend) -> Int {
        ProcessInfo.processInfo.environment["TODO_ISOLATION_CASES"].flatMap(Int.init) ?? (backend == .sqlite ? 100 : 10)
    }

    @Test(arguments: Backend.allCases)
    func neitherAccountReadsChangesOrLearnsOfTheOthersTodos(_ backend: Backend) async throws {
        if backend == .postgres, let reason = PostgresCluster.unavailableReason {
            try Test.cancel(Comment(rawValue: reason))
        }
        await propertyCheck(count: Self.cases(backend), input: Gen.int(in: 0...Int.max).array(of: 1...40)) { codes in
            let requests = codes.map(IsolationRequest.init(code:))
            try await withAccountsServer(["alice", "bob"], backend: backend) { shared, tokens, _ in
                try await withServer(backend) { alice in
                    try await withServer(backend) { bob in
                        for (index, request) in requests.enumerated() {
                            let together = try await request.send(to: shared, headers: bearer(tokens[request.account]))
                            let apart = try await request.send(to: request.account == 0 ? alice : bob, headers: [:])
                            #expect(
                                Answer(together) == Answer(apart),
                                "request \(index + 1) of \(requests.count), \(request), after \(requests.prefix(index))"
                            )
                        }
                    }
                }
            }
        }
    }
}

/// A request of one of the two accounts, on any route, decoded from a random number.
private struct IsolationRequest: CustomStringConvertible {
    let account: Int
    let method: HTTPRequest.Method
    let uri: String
    let body: String?
    let headers: HTTPFields

    init(code: Int) {
        account = code & 1
        let kind = (code >> 1) % 16
        let ids = ["1", "2", "a", "b"]
        let id = ids[(code >> 5) % ids.count]
        let otherID = ids[(code >> 7) % ids.count]
        let n = (code >> 9) % 5
        let title = ["milk", "eggs", "Milk tea"][(code >> 12) % 3]
        let completed = (code >> 14) & 1 == 1
        let jsonID = Int(id).map(String.init) ?? "\"\(id)\""
        var headers: HTTPFields = [:]
        switch kind {
        case 0: (method, uri, body) = (.get, "/todos", nil)
        case 1: (method, uri, body) = (.get, "/todos/\(id)", nil)
        case 2: (method, uri, body) = (.head, "/todos/\(id)", nil)
        case 3: (method, uri, body) = (.post, "/todos", #"{"id":\#(jsonID),"title":"\#(title)","completed":\#(completed)}"#)
        case 4: (method, uri, body) = (.put, "/todos/\(id)", #"{"title":"\#(title)","completed":\#(completed)}"#)
        case 5: (method, uri, body) = (.patch, "/todos/\(id)", #"{"completed":\#(completed)}"#)
        case 6: (method, uri, body) = (.delete, "/todos/\(id)", nil)
        case 7: (method, uri, body) = (.get, "/todos?_since=\(n)&_limit=\(n + 1)", nil)
        case 8: (method, uri, body) = (.get, completed ? "/todos?completed=true" : "/todos?title=\(title.replacingOccurrences(of: " ", with: "+"))", nil)
        case 9: (method, uri, body) = (.get, n.isMultiple(of: 2) ? "/todos?_page=\(n / 2 + 1)&_limit=2" : "/todos?_page=\(n / 2 + 1)&_per_page=2", nil)
        case 10:
            (method, uri, body) = (.patch, "/todos/\(id)", #"{"title":"\#(title)"}"#)
            headers[.ifMatch] = "\"\(n)\""
        case 11:
            (method, uri, body) = (.delete, "/todos/\(id)", nil)
            headers[.ifMatch] = n == 0 ? "*" : "\"\(n)\""
        case 12:
            (method, uri) = (.post, "/todos/_batch")
            body = #"""
                {"operations":[{"method":"POST","body":{"id":"\#(otherID)","title":"\#(title)"}},
                {"method":"PATCH","id":"\#(id)","ifMatch":\#(n == 0 ? "null" : String(n)),"body":{"completed":\#(completed)}},
                {"method":"DELETE","id":"\#(otherID)"}]}
                """#
        case 13: (method, uri, body) = (.get, "/todos?q=\(title.prefix(3))&_sort=-title,completed", nil)
        case 14:
            (method, uri, body) = (.get, "/todos/\(id)", nil)
            headers[.ifNoneMatch] = "\"\(n)\""
        default: (method, uri, body) = (.head, "/todos?_since=\(n)", nil)
        }
        self.headers = headers
    }

    func send(to client: any TestClientProtocol, headers extra: HTTPFields) async throws -> TestResponse {
        var all = headers
        all.append(contentsOf: extra)
        return try await client.send(method, uri, body, headers: all)
    }

    var description: String {
        "\(account == 0 ? "alice" : "bob"): \(method) \(uri)\(headers.isEmpty ? "" : " \(headers)")\(body.map { " " + $0 } ?? "")"
    }
}
