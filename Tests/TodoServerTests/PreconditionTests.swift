import Hummingbird
import HummingbirdTesting
import Testing
import TodoServer

/// Versions, ETags and conditional writes.
struct PreconditionTests {
    @Test(arguments: Backend.allCases)
    func everyChangeIncreasesTheVersion(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x"}"#)
            try await client.send(.patch, "/todos/x", #"{"title":"a"}"#)
            try await client.send(.put, "/todos/x", #"{"title":"b"}"#)
            #expect(try await client.send(.get, "/todos/x").headers[.eTag] == #""3""#)
        }
    }

    @Test(arguments: Backend.allCases, [HTTPRequest.Method.put, .patch, .delete])
    func aStaleIfMatchGets412AndChangesNothing(_ backend: Backend, _ method: HTTPRequest.Method) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x","title":"original"}"#)
            try await client.send(.patch, "/todos/x", #"{"completed":false}"#)
            let body: String? = method == .delete ? nil : #"{"title":"changed"}"#
            let response = try await client.send(method, "/todos/x", body, headers: [.ifMatch: #""1""#])
            #expect(response.status == .preconditionFailed)
            #expect(response.headers[.eTag] == #""2""#)
            #expect(response.errorMessage?.contains("version is now 2") == true)
            let current = try await client.send(.get, "/todos/x")
            #expect(try current.json["title"] == "original")
            #expect(current.headers[.eTag] == #""2""#)
        }
    }

    @Test(arguments: Backend.allCases)
    func aMatchingOrStarIfMatchWrites(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"x"}"#)
            let first = try await client.send(.patch, "/todos/x", #"{"title":"a"}"#, headers: [.ifMatch: #""7", "1""#])
            #expect(first.status == .ok)
            let second = try await client.send(.patch, "/todos/x", #"{"title":"b"}"#, headers: [.ifMatch: "*"])
            #expect(second.status == .ok)
            let weak = try await client.send(.delete, "/todos/x", headers: [.ifMatch: #"W/"3""#])
            #expect(weak.status == .preconditionFailed)
        }
    }

    @Test(arguments: Backend.allCases)
    func ifMatchOnAMissingTodoIs404(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let response = try await client.send(.put, "/todos/none", #"{}"#, headers: [.ifMatch: "*"])
            #expect(response.status == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func twoWritersRacingOnOneVersionOneWinsTheOtherGets412(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            for round in 1...20 {
                try await client.send(.post, "/todos", #"{"id":"r\#(round)"}"#)
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for writer in ["a", "b"] {
                        group.addTask {
                            try await client.send(.patch, "/todos/r\(round)", #"{"title":"\#(writer)"}"#, headers: [.ifMatch: #""1""#]).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed])
                #expect(try await client.send(.get, "/todos/r\(round)").json["version"] == 2)
            }
        }
    }
}
