/// Retries what can safely be retried, with growing pauses: timeouts, closed
/// connections and 5xx for idempotent requests, refused connections for any.
public struct RetryingTransport: HTTPTransport {
    public let base: any HTTPTransport
    /// Pauses before each retry; their count is the number of retries.
    public let delays: [Duration]
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        _ base: any HTTPTransport,
        delays: [Duration] = [.milliseconds(200), .milliseconds(600), .milliseconds(1500)],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.base = base
        self.delays = delays
        self.sleep = sleep
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var attempt = 0
        while true {
            do {
                let response = try await base.send(request)
                if response.status >= 500, request.isIdempotent, attempt < delays.count {
                    try await sleep(delays[attempt])
                    attempt += 1
                    continue
                }
                return response
            } catch let error as TransportError {
                let retriable = request.isIdempotent || error.kind == .connectionRefused
                guard retriable, attempt < delays.count else { throw error }
                try await sleep(delays[attempt])
                attempt += 1
            }
        }
    }
}
