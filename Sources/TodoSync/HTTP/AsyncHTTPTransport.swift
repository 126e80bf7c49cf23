import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The real transport, on AsyncHTTPClient's shared client.
public struct AsyncHTTPTransport: HTTPTransport {
    /// A response bigger than this is refused rather than read into memory.
    public static let maxBodySize = 256 * 1024 * 1024

    public let timeout: Duration

    public init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
    }

    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: .init(timeout))
            // Read straight into one array, sized from Content-Length: a
            // 16 MB list is copied once, not collected and then copied again.
            var body: [UInt8] = []
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length <= Self.maxBodySize {
                body.reserveCapacity(length)
            }
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= Self.maxBodySize else {
                    throw NIOTooManyBytesError(maxBytes: Self.maxBodySize)
                }
                chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            }
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                headers[name.lowercased()] = value
            }
            return HTTPResponseData(status: Int(response.status.code), headers: headers, body: body)
        } catch {
            throw Self.classify(error)
        }
    }

    /// Sorts a client error into what sync needs to know: was anything sent?
    static func classify(_ error: any Error) -> TransportError {
        let detail = String(describing: error)
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
                return TransportError(.timeout, detail)
            case .remoteConnectionClosed:
                return TransportError(.connectionClosed, detail)
            default:
                break
            }
        }
        let lowered = detail.lowercased()
        if lowered.contains("refused") || lowered.contains("errno: 111") {
            return TransportError(.connectionRefused, detail)
        }
        if lowered.contains("timeout") || lowered.contains("timed out") {
            return TransportError(.timeout, detail)
        }
        return TransportError(.other, detail)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
