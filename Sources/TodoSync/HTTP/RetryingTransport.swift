import Foundation

/// Retries what can safely be retried, with growing pauses, within a total
/// budget: timeouts, closed connections and 5xx for idempotent requests, a
/// connection that could not be made in time for any; `423 Locked` and a
/// `503` with `Retry-After` (the server did nothing with the request) for
/// any, a `Retry-After` longer than the pause waited for. A refused
/// connection, an unknown host or no route fails at once: nothing is there
/// to answer, and offline is the normal case for an offline-first app.
///
/// Once a server answers 423 (one that stores a list in a git repository
/// locks it for each write), its writes go one at a time from then on.
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
    /// Shared by every copy: after a 423, writes wait for each other.
    let writes = OneWriteAtATime()

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
                let response = try await sendOnce(request)
                let unapplied = response.status == 423 || (response.status == 503 && response.headers["retry-after"] != nil)
                guard unapplied || (response.status >= 500 && request.isIdempotent) else { return response }
                if response.status == 423 { await writes.begin() }
                let asked = response.headers["retry-after"].flatMap(Self.seconds)
                guard let delay = nextDelay(attempt, since: start, atLeast: asked) else { return response }
                try await pause(request, cause: "status \(response.status)", attempt: attempt, delay: delay)
            } catch let error as TransportError {
                let retriable = !error.kind.isOffline && (request.isIdempotent || error.kind.nothingSent)
                guard retriable, let delay = nextDelay(attempt, since: start) else { throw error }
                try await pause(request, cause: error.kind.explanation, attempt: attempt, delay: delay)
            }
            attempt += 1
        }
    }

    /// Sends once; a write waits its turn once the server has said 423.
    private func sendOnce(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        guard request.isWrite else { return try await base.send(request) }
        await writes.acquire()
        do {
            let response = try await base.send(request)
            await writes.release()
            return response
        } catch {
            await writes.release()
            throw error
        }
    }

    /// The pause before retry `attempt` (no shorter than `atLeast`, what
    /// the server asked), or nil if there is none left or the budget would run out.
    func nextDelay(_ attempt: Int, since start: ContinuousClock.Instant, atLeast asked: Duration? = nil) -> Duration? {
        guard attempt < delays.count else { return nil }
        let delay = max(delays[attempt], asked ?? .zero)
        return clock() - start + delay <= budget ? delay : nil
    }

    /// `Retry-After` in seconds; an HTTP date is left to the usual pauses.
    static func seconds(_ value: String) -> Duration? {
        Int(value.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 0 ? .seconds($0) : nil }
    }

    private func pause(_ request: HTTPRequestData, cause: String, attempt: Int, delay: Duration) async throws {
        onRetry(Retry(request: "\(request.method) \(request.url)", cause: cause, attempt: attempt + 1, delay: delay))
        try await sleep(delay)
    }
}

/// The writes on their way to a server; after it said 423 Locked, one at a
/// time: a write waits until none is on its way, those sent before the 423 included.
actor OneWriteAtATime {
    private var inTurn = false
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// From now on writes take turns.
    func begin() { inTurn = true }

    /// Counts a write in, once it may go.
    func acquire() async {
        guard inTurn, running > 0 else {
            running += 1
            return
        }
        // `release` counts it in as it hands the turn over.
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Counts a write out, and hands the turn to the next one waiting once none is on its way.
    func release() {
        running -= 1
        guard running == 0, !waiting.isEmpty else { return }
        running += 1
        waiting.removeFirst().resume()
    }
}

extension HTTPRequestData {
    /// A request that changes what the server holds.
    var isWrite: Bool { ["PUT", "DELETE", "POST", "PATCH"].contains(method) }
}
