import Foundation

/// Retries what can safely be retried, with growing pauses, within a total
/// budget: timeouts, closed connections and 5xx for idempotent requests, a
/// connection that could not be made in time for any. A refused connection,
/// an unknown host or no route fails at once: nothing is there to answer,
/// and offline is the normal case for an offline-first app.
public struct RetryingTransport: HTTPTransport {
    /// One retry about to happen, for a progress line.
    public struct Retry: Sendable, Hashable {
        public var request: String
        /// What went wrong: a transport failure's cause, or the HTTP status.
        public var cause: String
        public var attempt: Int
        public var delay: Duration
    }

    public let base: any HTTPTransport
    /// Pauses before each retry; their count is the most retries of one request.
    public let delays: [Duration]
    /// No retry starts once this much time has passed since the first attempt.
    public let budget: Duration
    let sleep: @Sendable (Duration) async throws -> Void
    let clock: @Sendable () -> ContinuousClock.Instant
    let onRetry: @Sendable (Retry) -> Void

    public init(
        _ base: any HTTPTransport,
        delays: [Duration] = [.milliseconds(250), .milliseconds(750), .seconds(2), .seconds(4)],
        budget: Duration = .seconds(10),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        onRetry: @escaping @Sendable (Retry) -> Void = { _ in }
    ) {
        self.base = base
        self.delays = delays
        self.budget = budget
        self.sleep = sleep
        self.clock = clock
        self.onRetry = onRetry
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let start = clock()
        var attempt = 0
        while true {
            do {
                let response = try await base.send(request)
                guard response.status >= 500, request.isIdempotent else { return response }
                guard let delay = nextDelay(attempt, since: start) else { return response }
                try await pause(request, cause: "status \(response.status)", attempt: attempt, delay: delay)
            } catch let error as TransportError {
                let retriable = !error.kind.isOffline && (request.isIdempotent || error.kind.nothingSent)
                guard retriable, let delay = nextDelay(attempt, since: start) else { throw error }
                try await pause(request, cause: error.kind.explanation, attempt: attempt, delay: delay)
            }
            attempt += 1
        }
    }

    /// The pause before retry `attempt`, or nil if there is none left or the budget would run out.
    func nextDelay(_ attempt: Int, since start: ContinuousClock.Instant) -> Duration? {
        guard attempt < delays.count else { return nil }
        let delay = delays[attempt]
        return clock() - start + delay <= budget ? delay : nil
    }

    private func pause(_ request: HTTPRequestData, cause: String, attempt: Int, delay: Duration) async throws {
        onRetry(Retry(request: "\(request.method) \(request.url)", cause: cause, attempt: attempt + 1, delay: delay))
        try await sleep(delay)
    }
}
