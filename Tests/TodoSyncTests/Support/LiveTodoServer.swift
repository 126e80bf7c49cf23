import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TodoServer
import TodoSync

/// Runs `body` against a real todo-server on a free loopback port, in process.
func withLiveTodoServer(_ body: @Sendable (String) async throws -> Void) async throws {
    var logger = Logger(label: "todo-sync-tests")
    logger.logLevel = .critical
    let app = buildApplication(
        repository: try SQLiteTodoRepository(ServerDatabase.inMemory()),
        options: ServerOptions(requestLogLevel: .trace),
        configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        logger: logger
    )
    // On the cooperative pool, whatever the test's own executor: the few
    // threads kept for tests that block (`ThreadsOfTheirOwn`) could all be
    // waiting on a todo process that waits on this server.
    try await withTaskExecutorPreference(globalConcurrentExecutor) {
        try await app.test(.live) { client in
            guard let port = client.port else { throw CocoaError(.fileNoSuchFile) }
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
