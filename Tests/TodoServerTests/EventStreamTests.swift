import Foundation
import Hummingbird
import Synchronization
import HummingbirdTesting
import TestSupport
import Testing
@testable import TodoServer

/// `GET /todos/events`: the real server, on both backends, tells each
/// account's streams of its own changes, whoever wrote them, and nobody else's.
@Suite("todo-server's event streams")
struct EventStreamTests {
    @Test(arguments: Backend.allCases)
    func eachAccountsStreamsHearOfItsChangesOnly(_ backend: Backend) async throws {
        let path = try await makeDatabaseArgument(backend)
        defer { removeDatabase(at: path) }
        let alice = try await addAccount("alice", database: path)
        let bob = try await addAccount("bob", database: path)
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()

        let aliceStream = try await Self.openStream(port: port, token: alice)
        let bobStream = try await Self.openStream(port: port, token: bob)
        // Each is told first where its feed stands.
        #expect(try await aliceStream.read(until: "id: 0\nevent: change\ndata: {\"cursor\":\"0\"}\n\n", timeout: .seconds(30)) != nil)
        #expect(try await bobStream.read(until: "id: 0\n", timeout: .seconds(30)) != nil)

        try await Self.create("b1", port: port, token: bob)
        #expect(try await bobStream.read(until: "id: 1\nevent: change\ndata: {\"cursor\":\"1\"}", timeout: .seconds(30)) != nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!aliceStream.receivedText.contains("id: 1"), "alice heard of bob's change")

        try await Self.create("a1", port: port, token: alice)
        try await Self.create("a2", port: port, token: alice)
        #expect(try await aliceStream.read(until: "id: 2\n", timeout: .seconds(30)) != nil)
        #expect(!bobStream.receivedText.contains("id: 2"), "bob heard of alice's change")
    }

    @Test(arguments: Backend.allCases)
    func aWriteOnOneInstanceWakesAStreamOnTheOther(_ backend: Backend) async throws {
        let path = try await makeDatabaseArgument(backend)
        defer { removeDatabase(at: path) }
        let servers = [try ServerProcess(["--port", "0", "--database", path]), try ServerProcess(["--port", "0", "--database", path])]
        defer { for server in servers { kill(server.process.processIdentifier, SIGKILL) } }
        let ports = [try await servers[0].port(), try await servers[1].port()]

        let stream = try await Self.openStream(port: ports[0])
        #expect(try await stream.read(until: "id: 0\n", timeout: .seconds(30)) != nil)
        for index in 1...3 {
            try await Self.create("t\(index)", port: ports[1])
            #expect(try await stream.read(until: "id: \(index)\n", timeout: .seconds(30)) != nil, "change \(index) made on the other instance")
        }
    }

    @Test(arguments: Backend.allCases)
    func aSharedListsStreamTellsOfThatListOnlyAndEndsWithTheShare(_ backend: Backend) async throws {
        let path = try await makeDatabaseArgument(backend)
        defer { removeDatabase(at: path) }
        let mum = try await addAccount("mum", database: path)
        let dad = try await addAccount("dad", database: path)
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        #expect(try await Self.send(.put, "/shares/shopping/dad", port: port, token: mum) == .created)
        #expect(try await Self.send(.put, "/joined/shopping", #"{"owner":"mum","list":"shopping"}"#, port: port, token: dad) == .created)

        let stream = try await Self.openStream(port: port, token: dad, path: "/lists/mum/shopping/todos/events")
        #expect(try await stream.read(until: "id: 0\nevent: change\n", timeout: .seconds(30)) != nil)
        // mum's own todo is not the list's: dad's stream says nothing of it.
        try await Self.create("doctor", port: port, token: mum)
        try await Self.create("milk", port: port, token: mum, project: "shopping")
        #expect(try await stream.read(until: "id: 2\nevent: change\n", timeout: .seconds(30)) != nil)
        #expect(!stream.receivedText.contains("id: 1\n"), "dad heard of mum's own todo: \(stream.receivedText)")
        // A stranger's stream of the list is the list that is not there.
        let refused = try await Self.openStream(port: port, token: mum, path: "/lists/dad/shopping/todos/events")
        #expect(try await refused.read(until: "404", timeout: .seconds(30)) != nil)
        // Unshared, the stream ends at the next change, telling nothing of it.
        #expect(try await Self.send(.delete, "/shares/shopping/dad", port: port, token: mum) == .noContent)
        try await Self.create("eggs", port: port, token: mum, project: "shopping")
        #expect(try await stream.read(until: "\r\n0\r\n\r\n", timeout: .seconds(30)) != nil, "the stream did not end: \(stream.receivedText)")
        #expect(!stream.receivedText.contains("id: 3\n"))
    }

    @Test func lastEventIDResumesWithoutAMissedChangeOrSaysResync() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        for index in 1...3 { try await Self.create("t\(index)", port: port) }

        // Two changes missed: one event, at once, with the latest cursor.
        let behind = try await Self.openStream(port: port, lastEventID: "1")
        #expect(try await behind.read(until: "id: 3\nevent: change\n", timeout: .seconds(30)) != nil)

        // Nothing missed: nothing said, until the next change.
        let current = try await Self.openStream(port: port, lastEventID: "3")
        #expect(try await current.read(until: "retry: 1000\n\n", timeout: .seconds(30)) != nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!current.receivedText.contains("event:"))
        try await Self.create("t4", port: port)
        #expect(try await current.read(until: "id: 4\nevent: change\n", timeout: .seconds(30)) != nil)
        #expect(try await behind.read(until: "id: 4\nevent: change\n", timeout: .seconds(30)) != nil)

        // A cursor this server never gave (its data was replaced): resync.
        let ahead = try await Self.openStream(port: port, lastEventID: "99")
        #expect(try await ahead.read(until: "id: 4\nevent: resync\ndata: {\"cursor\":\"4\"}", timeout: .seconds(30)) != nil)

        let garbage = try await Self.openStream(port: port, lastEventID: "abc")
        let answer = try await garbage.read(until: "}", timeout: .seconds(30))
        #expect(answer?.hasPrefix("HTTP/1.1 400") == true)
        #expect(answer?.contains("Last-Event-ID must be") == true)
    }

    @Test func aQuietStreamGetsHeartbeatsAndOutlivesTheIdleTimeout() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path, "--event-heartbeat", "1", "--idle-timeout", "4"])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        // A connection the server closes before reading its request (a starved
        // machine past the idle timeout) is no stream yet: open another.
        var stream = try await Self.openStream(port: port)
        for _ in 0..<3 where try await stream.read(until: "text/event-stream", timeout: .seconds(30)) == nil {
            stream = try await Self.openStream(port: port)
        }
        #expect(stream.receivedText.contains("Content-Type: text/event-stream; charset=utf-8"))
        // Each heartbeat a chunk of its own; six take longer than the idle
        // timeout (4 s: a full CI run here once left the server over 2 s
        // before it read a request).
        var heartbeats = 0
        for _ in 0..<600 where heartbeats < 6 {
            guard try await stream.read(until: "never sent", timeout: .milliseconds(100)) == nil, !stream.isClosed else { break }
            heartbeats = stream.receivedText.components(separatedBy: ": heartbeat\n\n").count - 1
        }
        #expect(heartbeats >= 6)
    }

    @Test func streamsPastTheLimitsAreRefusedWith429UntilOneCloses() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess([
            "--port", "0", "--database", path, "--event-heartbeat", "1", "--max-event-streams-per-account", "2",
        ])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let port = try await server.port()
        var open: [RawConnection] = []
        for _ in 0..<2 {
            let stream = try await Self.openStream(port: port)
            #expect(try await stream.read(until: "id: 0\n", timeout: .seconds(30)) != nil)
            open.append(stream)
        }
        let refused = try await Self.openStream(port: port)
        let answer = try await refused.read(until: "}", timeout: .seconds(30))
        #expect(answer?.hasPrefix("HTTP/1.1 429") == true)
        #expect(answer?.contains("Retry-After: 30") == true)
        #expect(answer?.contains("limit for one account") == true)

        // A client that goes frees its place by the next heartbeat.
        open.removeFirst()
        var accepted = false
        for _ in 0..<50 where !accepted {
            try await Task.sleep(for: .milliseconds(200))
            let again = try await Self.openStream(port: port)
            accepted = try await again.read(until: "\r\n", timeout: .seconds(30))?.hasPrefix("HTTP/1.1 200") == true
        }
        #expect(accepted)
    }

    @Test func shutdownEndsTheOpenStreams() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let server = try ServerProcess(["--port", "0", "--database", path])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let stream = try await Self.openStream(port: try await server.port())
        #expect(try await stream.read(until: "id: 0\n", timeout: .seconds(30)) != nil)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.exitStatus(timeout: .seconds(30)) == 0)
        // The stream ended as a stream ends: its last chunk, then the close.
        #expect(try await stream.readUntilClosed(timeout: .seconds(5)) != nil)
        #expect(stream.receivedText.contains("id: 0"))
    }

    @Test func withoutAcceptingAStreamTheURLIsTheTodoNamedEvents() async throws {
        try await withServer { client in
            try await client.execute(uri: "/todos/events", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: #"{"id":"events","title":"a todo like any other"}"#)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/todos/events", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("a todo like any other"))
            }
        }
    }

    // MARK: - The announcer itself

    /// Fans out what it is told; a watcher that never nudges.
    struct QuietWatcher: ChangeWatcher {
        func watch(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) async throws {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        }

        func counters(of accounts: [AccountID]) async throws -> [AccountID: Int] { [:] }
    }

    @Test func aListenerThatDoesNotReadHoldsOneCursorWhateverTheNumberOfChanges() async throws {
        let announcer = ChangeAnnouncer(watcher: QuietWatcher(), heartbeat: .seconds(3600))
        let slow = try announcer.listen(account: AccountID(1), known: 0)
        let other = try announcer.listen(account: AccountID(2), known: 0)
        for cursor in 1...100_000 { announcer.announce(AccountID(1), cursor: cursor) }
        #expect(await slow.next() == .changed(cursor: 100_000))
        // Nothing more is waiting: the next event is the next change.
        announcer.announce(AccountID(1), cursor: 100_001)
        announcer.announce(AccountID(1), cursor: 100_001)
        #expect(await slow.next() == .changed(cursor: 100_001))
        // Another account's listener heard nothing, and closing frees both places.
        announcer.beat()
        #expect(await other.next() == .heartbeat)
        slow.close()
        other.close()
        #expect(announcer.listenerCount == 0)
        #expect(await slow.next() == nil)
    }

    /// Counters the test sets, and the nudge of the watch running now.
    final class ScriptedWatcher: ChangeWatcher {
        let counters = Mutex<[AccountID: Int]>([:])
        let nudge = Mutex<(@Sendable (Set<AccountID>?) -> Void)?>(nil)

        func watch(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) async throws {
            self.nudge.withLock { $0 = nudge }
            nudge(nil)
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        }

        func counters(of accounts: [AccountID]) async throws -> [AccountID: Int] {
            counters.withLock { counters in counters.filter { accounts.contains($0.key) } }
        }

        func change(_ account: AccountID, to counter: Int) async throws {
            counters.withLock { $0[account] = counter }
            // The watch of the run now going (a new run after the last listener left).
            for _ in 0..<2_000 where nudge.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
            nudge.withLock { $0 }?(Set([account]))
        }
    }

    @Test func theWatchStartsAgainAfterTheLastListenerLeft() async throws {
        let watcher = ScriptedWatcher()
        let announcer = ChangeAnnouncer(watcher: watcher, heartbeat: .seconds(3600))
        let account = AccountID(1)
        let first = try announcer.listen(account: account, known: 0)
        try await watcher.change(account, to: 1)
        #expect(await first.next() == .changed(cursor: 1))
        first.close()
        watcher.nudge.withLock { $0 = nil }

        // Everyone left, so the watch stopped; a new listener starts it again, and hears the next change.
        let second = try announcer.listen(account: account, known: 1)
        try await watcher.change(account, to: 2)
        #expect(await Self.next(second, within: .seconds(30)) == .changed(cursor: 2))
        second.close()
    }

    /// The listener's next event, or nil if none comes within `limit` (it is closed then).
    static func next(_ subscription: Subscription, within limit: Duration) async -> StreamEvent? {
        await withTaskGroup(of: StreamEvent?.self) { group in
            group.addTask { await subscription.next() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func theLimitsCountOpenListeners() throws {
        let announcer = ChangeAnnouncer(watcher: QuietWatcher(), limits: ChangeAnnouncer.Limits(total: 3, perAccount: 2))
        let first = try announcer.listen(account: AccountID(1), known: 0)
        _ = try announcer.listen(account: AccountID(1), known: 0)
        #expect(throws: ServerError.self) { try announcer.listen(account: AccountID(1), known: 0) }
        _ = try announcer.listen(account: AccountID(2), known: 0)
        #expect(throws: ServerError.self) { try announcer.listen(account: AccountID(3), known: 0) }
        first.close()
        _ = try announcer.listen(account: AccountID(3), known: 0)
    }

    // MARK: - Helpers

    /// `GET /todos/events` on a connection of its own, read as it comes.
    static func openStream(port: Int, token: String? = nil, lastEventID: String? = nil, path: String = "/todos/events") async throws -> RawConnection {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        return try await RawConnection(port: port, sending: head + "\r\n")
    }

    static func create(_ id: String, port: Int, token: String? = nil, project: String? = nil) async throws {
        let project = project.map { #","project":"\#($0)""# } ?? ""
        #expect(try await send(.post, "/todos", #"{"id":"\#(id)","title":"\#(id)"\#(project)}"#, port: port, token: token) == .created)
    }

    /// A request on a connection of its own: the status.
    static func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, port: Int, token: String? = nil) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { [headers] client in
            try await client.execute(TestClient.Request(uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }))
        }
        return response.status
    }
}
