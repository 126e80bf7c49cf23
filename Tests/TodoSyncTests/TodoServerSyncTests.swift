import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// Sync against a real todo-server over a socket: detection, the change feed,
/// conditional writes.
@Suite(.serialized)
struct TodoServerSyncTests {
    @Test func twoReplicasSyncThroughTheChangeFeed() async throws {
        try await withLiveTodoServer { url in
            let transport = AsyncHTTPTransport(timeout: .seconds(10))
            let a = try Replica(transport: transport, server: url)
            let b = try Replica(transport: transport, server: url)
            try a.add("buy milk")
            try await a.sync()
            #expect(try await SQLiteSyncStore(a.db).syncSetting(SyncSettingKey.kind) == "todo-server")
            #expect(try await SQLiteSyncStore(a.db).syncSetting(SyncSettingKey.cursor) != nil)
            try await b.sync()
            #expect(try b.contents() == a.contents())
            let item = try #require(try b.todos().first)
            try b.db.updateTodos([item.marking(done: true, at: Date())])
            try await b.sync()
            let summary = try await a.sync()
            #expect(summary.pulled == 1)
            #expect(try a.todos().first?.isDone == true)
            // Nothing to do: the feed is empty and no todo is read.
            let idle = try await a.sync()
            #expect(idle.pulled == 0 && idle.pushed == 0 && idle.steps.isEmpty)
        }
    }

    @Test func anotherClientsChangeIsMergedWithOurs() async throws {
        try await withLiveTodoServer { url in
            let transport = AsyncHTTPTransport(timeout: .seconds(10))
            let a = try Replica(transport: transport, server: url)
            try a.add("draft")
            try await a.sync()
            let id = try #require(try a.todos().first?.idString)
            // Another client changes it behind our back, so our If-Match is stale.
            _ = try await transport.send(HTTPRequestData(
                method: "PATCH", url: "\(url)/todos/\(id)", headers: ["content-type": "application/json"],
                body: Array(#"{"completed":true}"#.utf8)
            ))
            let item = try #require(try a.todos().first)
            try a.db.updateTodos([item.editing(text: "final", at: Date())])
            try await a.sync()
            #expect(try a.todos().first?.syncFields == SyncFields(text: "final", isDone: true))
            let remote = try await RemoteCollection(configuration: SyncConfiguration(server: url), transport: transport).fetchAll()
            #expect(remote.items.map(\.fields) == [SyncFields(text: "final", isDone: true)])
        }
    }

    @Test(arguments: (1...15).map { UInt64($0) })
    func modelConvergesOnARealTodoServer(seed: UInt64) async throws {
        try await withLiveTodoServer { url in
            try await SyncModel(
                seed: seed, steps: 30, faults: seed % 3 == 0, server: url,
                serverTransport: AsyncHTTPTransport(timeout: .seconds(10))
            ) { _ in }.run()
        }
    }

    /// The same model through a real json-server-style process (HTTP on
    /// loopback, items kept whole with the fields `todo` writes into them).
    @Test(arguments: (1...6).map { UInt64($0) })
    func modelConvergesOnARealJSONServerProcess(seed: UInt64) async throws {
        let server = try ServerProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", PagingEndToEndTests.script.path, "--port", "0"]
        )
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGTERM) } }
        let url = "http://127.0.0.1:\(try await server.port())"
        try await SyncModel(
            seed: seed, steps: 30, faults: seed % 3 == 0, server: url, serverTransport: AsyncHTTPTransport(timeout: .seconds(10))
        ) { _ in }.run()
    }

    /// Pushes go to todo-server in batches: 1,200 adds in three requests,
    /// each applied there in one transaction; an edit and a delete batch too.
    @Test func pushesGoInBatches() async throws {
        try await withLiveTodoServer { url in
            let counting = Logged(AsyncHTTPTransport(timeout: .seconds(30)))
            let a = try Replica(transport: counting, server: url)
            try await a.sync()
            for index in 0..<1_200 { try a.add("todo \(index)") }
            #expect(try await a.sync().pushed == 1_200)
            let writes = await counting.log.filter { !$0.hasPrefix("GET") }
            #expect(writes == Array(repeating: "POST /todos/_batch", count: 3), "\(writes.prefix(5))")
            let todos = try a.todos()
            try a.db.updateTodos([todos[0].editing(text: "edited", at: Date())])
            try a.db.deleteTodos(ids: [todos[1].id])
            try await a.sync()
            #expect(await counting.log.filter { !$0.hasPrefix("GET") }.count == 4)
            let b = try Replica(transport: counting, server: url)
            try await b.sync()
            #expect(try b.contents() == a.contents())
            #expect(try b.todos().count == 1_199)
        }
    }
}

/// Two batches are on their way at once. A server that refuses one as too
/// large (413) gets its writes one by one, but not those of a batch still on
/// its way that it took: every create reaches it exactly once.
@Suite struct BatchFallbackTests {
    @Test func aRefusedBatchGoesOneByOneAndABatchTakenMeanwhileIsNotSentAgain() async throws {
        try await withLiveTodoServer { url in
            let refusing = RefusingFirstBatch(AsyncHTTPTransport(timeout: .seconds(30)))
            let a = try Replica(transport: refusing, server: url)
            try await a.sync()
            for index in 0..<1_200 { try a.add("todo \(index)") }
            #expect(try await a.sync().pushed == 1_200)
            let (refused, takenInBatches, single) = await (refusing.refused, refusing.takenInBatches, refusing.singleCreates)
            #expect(refused == 1)
            // 3 batches of at most 500: one refused, then one create a request for it, none twice.
            #expect(takenInBatches + single == 1_200, "\(takenInBatches) in batches, \(single) alone")
            let b = try Replica(transport: AsyncHTTPTransport(timeout: .seconds(30)), server: url)
            try await b.sync()
            #expect(try b.todos().count == 1_200)
            #expect(try b.contents() == a.contents())
        }
    }
}

/// Answers the first batch request with a 413 without passing it on, and
/// counts the creates the server is sent: in batches it took, and alone.
actor RefusingFirstBatch: HTTPTransport {
    let base: any HTTPTransport
    private(set) var refused = 0
    private(set) var takenInBatches = 0
    private(set) var singleCreates = 0

    init(_ base: any HTTPTransport) { self.base = base }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let path = URL(string: request.url)?.path ?? request.url
        if request.method == "POST", path.hasSuffix("/_batch") {
            if refused == 0 {
                refused += 1
                return HTTPResponseData(status: 413, headers: [:], body: Array(#"{"error":"too large"}"#.utf8))
            }
            let response = try await base.send(request)
            takenInBatches += String(decoding: response.body, as: UTF8.self).components(separatedBy: #""status":201"#).count - 1
            return response
        }
        if request.method == "POST" { singleCreates += 1 }
        return try await base.send(request)
    }
}

/// Records each request's method and path.
actor Logged: HTTPTransport {
    let base: any HTTPTransport
    private(set) var log: [String] = []

    init(_ base: any HTTPTransport) { self.base = base }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        log.append("\(request.method) \(URL(string: request.url)?.path ?? request.url)")
        return try await base.send(request)
    }
}
