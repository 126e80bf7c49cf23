import Foundation
import NIOCore
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Counts what reaches the real transport.
actor Counting: HTTPTransport {
    let base: any HTTPTransport
    private(set) var sent = 0

    init(_ base: any HTTPTransport) { self.base = base }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        sent += 1
        return try await base.send(request)
    }
}

/// Offline is the normal case: a server that is not there fails at once,
/// saying so in one line, and what is slow to answer is retried within a budget.
struct OfflineTests {
    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aRefusedConnectionFailsAtOnceWithTheQueuedCount() async throws {
        let counting = Counting(AsyncHTTPTransport())
        let server = "http://127.0.0.1:\(try Self.closedPort())"
        let db = try AppDatabase.inMemory()
        for text in ["a", "b", "c"] { try db.insertTodo(TodoItem(id: UUID(), text: text, createdAt: Date())) }
        let service = SyncService(
            store: SQLiteSyncStore(db), configuration: SyncConfiguration(server: server),
            transport: RetryingTransport(counting, sleep: { _ in Issue.record("a refused connection was retried") })
        )
        let error = await #expect(throws: SyncError.self) { try await service.sync(dryRun: false) { _ in } }
        #expect(error == .unreachable(server: server, request: "GET /todos", kind: .connectionRefused, queued: 3))
        let message = String(describing: error!)
        #expect(message.contains("nothing is listening there") && message.contains("3 local changes stay queued"))
        #expect(!message.contains("errno") && !message.contains("\n"))
        #expect(message.filter { $0 == "(" }.count == message.filter { $0 == ")" }.count)
        #expect(await counting.sent == 1)
        #expect(TodoError(error!) == .unavailable(message))
    }

    @Test func errorsAreSortedByTypeAndCode() {
        #expect(AsyncHTTPTransport.kind(of: IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .connectionRefused)
        #expect(AsyncHTTPTransport.kind(of: IOError(errnoCode: ENETUNREACH, reason: "connect")) == .noRoute)
        #expect(AsyncHTTPTransport.kind(of: IOError(errnoCode: EHOSTUNREACH, reason: "connect")) == .noRoute)
        #expect(AsyncHTTPTransport.kind(of: ChannelError.connectTimeout(.seconds(5))) == .connectTimeout)
        #expect(AsyncHTTPTransport.kind(of: CancellationError()) == nil)
    }

    /// A fake clock that moves only when the transport sleeps.
    final class FakeClock: @unchecked Sendable {
        private let lock = NSLock()
        private var elapsed: Duration = .zero
        let start = ContinuousClock.now

        var now: ContinuousClock.Instant { lock.withLock { start + elapsed } }
        func advance(_ by: Duration) { lock.withLock { elapsed += by } }
        var total: Duration { lock.withLock { elapsed } }
    }

    @Test(arguments: [TransportError.Kind.timeout, .connectTimeout])
    func slowAnswersAreRetriedWithinTheBudgetThenReported(kind: TransportError.Kind) async throws {
        let server = FakeJSONServer(.v1)
        let broken = BrokenListing(server)
        await broken.breakListing(nil, error: TransportError(kind, "fake"))
        let clock = FakeClock()
        let retries = Counting(broken)
        let transport = RetryingTransport(
            retries, sleep: { clock.advance($0) }, clock: { clock.now }
        )
        let db = try AppDatabase.inMemory()
        let service = SyncService(store: SQLiteSyncStore(db), configuration: SyncConfiguration(server: "http://fake"), transport: transport)
        let error = await #expect(throws: SyncError.self) { try await service.sync(dryRun: false) { _ in } }
        #expect(error == .unreachable(server: "http://fake", request: "GET /todos", kind: kind, queued: 0))
        // A try and four retries, after pauses of 0.25, 0.75, 2 and 4 s: 7 s, within the 10 s budget.
        #expect(clock.total == .seconds(7))
        #expect(await retries.sent == 5)
    }

    @Test func aServerErrorIsRetriedOnlyForRequestsSafeToRepeat() async throws {
        struct Failing: HTTPTransport {
            func send(_ request: HTTPRequestData) async throws -> HTTPResponseData { HTTPResponseData(status: 503) }
        }
        let counting = Counting(Failing())
        let transport = RetryingTransport(counting, sleep: { _ in })
        _ = try await transport.send(HTTPRequestData(method: "POST", url: "http://fake/todos"))
        #expect(await counting.sent == 1)
        _ = try await transport.send(HTTPRequestData(method: "GET", url: "http://fake/todos"))
        #expect(await counting.sent == 6)
    }
}
