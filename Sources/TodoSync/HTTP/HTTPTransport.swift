/// One HTTP request, as sync sends it.
public struct HTTPRequestData: Sendable, Hashable {
    public var method: String
    /// The full URL, query included.
    public var url: String
    public var headers: [String: String]
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Safe to send twice: every method but POST, in the way sync uses them.
    public var isIdempotent: Bool { method != "POST" }
}

/// One HTTP response; header names lowercased.
public struct HTTPResponseData: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request got no response.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Nothing listens at that address: nothing was sent.
        case connectionRefused = "connection refused"
        /// The host name does not resolve: nothing was sent.
        case unknownHost = "unknown host"
        /// No network path to the host: nothing was sent.
        case noRoute = "no route to the host"
        /// No connection within the connect timeout: nothing was sent.
        case connectTimeout = "no connection in time"
        /// Connected, but no answer in time: the server may have applied the request.
        case timeout = "timed out"
        /// The connection closed; the server may or may not have applied the request.
        case connectionClosed = "connection closed"
        /// The TLS handshake failed (https to a plain-HTTP server): nothing was sent.
        case tls = "TLS failed"
        case other = "failed"

        /// Retrying now cannot help: nothing is there to answer.
        public var isOffline: Bool { self == .connectionRefused || self == .unknownHost || self == .noRoute || self == .tls }

        /// The request never reached the server.
        public var nothingSent: Bool { isOffline || self == .connectTimeout }

        /// The cause in words, for the person at the terminal.
        public var explanation: String {
            switch self {
            case .connectionRefused: "connection refused: nothing is listening there"
            case .unknownHost: "unknown host: the name does not resolve"
            case .noRoute: "no route to the host: check the network"
            case .connectTimeout: "no connection within the time allowed"
            case .timeout: "no answer within the time allowed"
            case .connectionClosed: "the server closed the connection"
            case .tls: "TLS failed: nothing answers https there; for a plain-HTTP server (one on this machine) use http://"
            case .other: "the request failed"
            }
        }
    }

    public var kind: Kind
    public var detail: String

    public init(_ kind: Kind, _ detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    public var description: String {
        detail.isEmpty ? kind.rawValue : "\(kind.rawValue) (\(detail))"
    }
}

/// Sends HTTP requests. Tests put fakes and faults behind it.
public protocol HTTPTransport: Sendable {
    /// The response, whatever its status; throws `TransportError` if there is none.
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}
