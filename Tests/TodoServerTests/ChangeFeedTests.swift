import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServer

/// `GET /todos?_since=CURSOR`: changes and tombstones after a cursor.
struct ChangeFeedTests {
    @Test(arguments: Backend.allCases)
    func sinceZeroReturnsEverythingAndTheCursor(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"a"}"#)
            try await client.send(.post, "/todos", #"{"id":"b"}"#)
            let feed = try await client.send(.get, "/todos?_since=0")
            #expect(feed.status == .ok)
            #expect(feed.headers[.init("X-Cursor")!] == "2")
            let body = try feed.json
            #expect(body["cursor"] == "2")
            #expect(body["items"]?.count == 2)
            #expect(body["deleted"] == [])
            #expect(body["more"] == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func returnsOnlyChangesAfterTheCursorWithTombstones(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            try await client.send(.post, "/todos", #"{"id":"a"}"#)
            try await client.send(.post, "/todos", #"{"id":"b"}"#)
            try await client.send(.post, "/todos", #"{"id":"c"}"#)
            let cursor = try #require(try await client.send(.get, "/todos").headers[.init("X-Cursor")!])
            try await client.send(.patch, "/todos/a", #"{"title":"changed"}"#)
            try await client.send(.delete, "/todos/b")
            let body = try await client.send(.get, "/todos?_since=\(cursor)").json
            #expect(body["items"] == [["id": "a", "title": "changed", "version": 2, "updatedAt": "2026-11-21T09:30:00.000Z"]])
            #expect(body["deleted"] == [["id": "b", "version": 2, "updatedAt": "2026-11-21T09:30:00.000Z", "deleted": true]])
            #expect(body["cursor"] == "5")
            let after = try await client.send(.get, "/todos?_since=5").json
            #expect(after["items"] == [] && after["deleted"] == [])
        }
    }

    @Test(arguments: Backend.allCases)
    func limitPagesTheFeed(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            for id in 1...5 {
                try await client.send(.post, "/todos", #"{"id":"\#(id)"}"#)
            }
            let first = try await client.send(.get, "/todos?_since=0&_limit=2").json
            #expect(first["items"]?.count == 2 && first["cursor"] == "2" && first["more"] == true)
            let last = try await client.send(.get, "/todos?_since=4&_limit=2").json
            #expect(last["items"]?.count == 1 && last["cursor"] == "5" && last["more"] == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCursorAheadOfTheServerIs410(_ backend: Backend) async throws {
        try await withServer(backend) { client in
            let response = try await client.send(.get, "/todos?_since=99")
            #expect(response.status == .gone)
            #expect(response.errorMessage?.contains("full resync") == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCursorOlderThanPurgedTombstonesIs410(_ backend: Backend) async throws {
        let clock = TestClock()
        try await withTestDatabase(backend, clock: clock, tombstoneRetention: .seconds(86_400)) { repository, _ in
            try await makeApp(repository).test(.router) { client in
                try await client.send(.post, "/todos", #"{"id":"a"}"#)
                try await client.send(.post, "/todos", #"{"id":"b"}"#)
                try await client.send(.delete, "/todos/a")  // change 3
                clock.advance(days: 2)
                try await client.send(.delete, "/todos/b")  // change 4; purges a's tombstone
                let old = try await client.send(.get, "/todos?_since=2")
                #expect(old.status == .gone)
                #expect(old.errorMessage?.contains("tombstones are kept 1 days") == true)
                let fresh = try await client.send(.get, "/todos?_since=3").json
                #expect(fresh["deleted"]?.count == 1)
            }
        }
    }

    @Test func dataAndCursorsSurviveARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-server-\(UUID()).sqlite").path
        defer { removeDatabase(at: path) }
        let cursor = try await makeApp(SQLiteTodoRepository.open(path: path)).test(.router) { client in
            try await client.send(.post, "/todos", #"{"id":"kept","title":"survives"}"#)
            try await client.send(.post, "/todos", #"{"id":"gone"}"#)
            try await client.send(.delete, "/todos/gone")
            return try #require(try await client.send(.get, "/todos").headers[.init("X-Cursor")!])
        }
        try await makeApp(SQLiteTodoRepository.open(path: path)).test(.router) { client in
            #expect(try await client.send(.get, "/todos/kept").json["title"] == "survives")
            #expect(try await client.send(.get, "/todos?_since=\(cursor)").json["items"] == [])
            try await client.send(.patch, "/todos/kept", #"{"completed":true}"#)
            let feed = try await client.send(.get, "/todos?_since=\(cursor)").json
            #expect(feed["items"]?.count == 1)
            #expect(feed["cursor"] == .string(String(Int(cursor)! + 1)))
            #expect(try await client.send(.get, "/todos?_since=0").json["deleted"]?.count == 1)
        }
    }
}
