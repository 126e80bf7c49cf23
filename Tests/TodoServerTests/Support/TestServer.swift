import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TodoServer

/// The fixed clock tests run at, so `updatedAt` is exact: 2026-11-21T09:30:00.000Z.
let testStart = Date(timeIntervalSince1970: 1_795_253_400)

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = testStart) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(days: Double) {
        lock.withLock { current += days * 86_400 }
    }

    func advance(seconds: Int) {
        lock.withLock { current += TimeInterval(seconds) }
    }
}

/// Ids `id-1`, `id-2`… in creation order.
final class TestIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    func make() -> String {
        lock.withLock {
            next += 1
            return "id-\(next)"
        }
    }
}

var quietLogger: Logger {
    var logger = Logger(label: "todo-server-tests")
    logger.logLevel = .critical
    return logger
}

/// A repository on a fresh in-memory database with a fixed clock and ids.
func makeRepository(
    clock: TestClock = TestClock(),
    tombstoneRetention: Duration = SQLiteTodoRepository.defaultTombstoneRetention
) throws -> SQLiteTodoRepository {
    let ids = TestIDs()
    return try SQLiteTodoRepository(
        ServerDatabase.inMemory(),
        tombstoneRetention: tombstoneRetention,
        now: { clock.now },
        makeID: { ids.make() }
    )
}

func makeApp(
    _ repository: some TodoRepository,
    accounts: (any AccountStore)? = nil,
    options: ServerOptions = ServerOptions(requestLogLevel: .trace)
) -> some ApplicationProtocol {
    buildApplication(
        repository: repository,
        accounts: accounts,
        options: options,
        configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        logger: quietLogger
    )
}

/// Runs `test` against a fresh server through the router, without a socket.
func withServer(
    _ backend: Backend = .sqlite,
    clock: TestClock = TestClock(),
    options: ServerOptions = ServerOptions(requestLogLevel: .trace),
    _ test: @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    try await withTestDatabase(backend, clock: clock) { repository, _ in
        try await makeApp(repository, options: options).test(.router) { client in try await test(client) }
    }
}

/// A server with accounts: `accounts` are created first, and `test` gets
/// each one's token in the same order, and the store.
func withAccountsServer(
    _ names: [String],
    backend: Backend = .sqlite,
    clock: TestClock = TestClock(),
    _ test: @Sendable (any TestClientProtocol, [String], any AccountStore) async throws -> Void
) async throws {
    try await withTestDatabase(backend, clock: clock) { repository, accounts in
        var tokens: [String] = []
        for name in names {
            tokens.append(try await accounts.addAccount(name: name, tokenLabel: "default", expiresInDays: nil))
        }
        let app = makeApp(repository, accounts: accounts)
        try await app.test(.router) { [tokens] client in try await test(client, tokens, accounts) }
    }
}

/// `Authorization: Bearer TOKEN`.
func bearer(_ token: String) -> HTTPFields {
    [.authorization: "Bearer \(token)"]
}

extension TestClientProtocol {
    /// Sends a request, with `Content-Type: application/json` when it has a body.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        _ body: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if body != nil {
            headers[.contentType] = "application/json"
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    var json: JSON {
        get throws { try JSON(parsing: text) }
    }

    /// The `error` message of a JSON error body, or nil if the body is not one.
    var errorMessage: String? {
        (try? json)?["error"]?.string
    }
}
