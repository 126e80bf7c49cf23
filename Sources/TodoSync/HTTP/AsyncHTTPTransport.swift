import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The real transport, on one AsyncHTTPClient client per process.
public struct AsyncHTTPTransport: HTTPTransport {
    /// A response bigger than this is refused rather than read into memory.
    public static let maxBodySize = 256 * 1024 * 1024

    /// The client every transport shares: a connection that cannot be made
    /// fails at once, instead of being tried again until the request's
    /// deadline (AsyncHTTPClient's default), because a refused connection
    /// means nothing listens there and offline is the normal case for this app.
    /// A `static let` lives as long as the process, so it is never shut down.
    static let client = makeClient(readTimeout: .seconds(8))

    /// The client for a CalDAV server, which may answer one write at a time
    /// (Radicale checks each PUT against every task: 0.36 s at 10,000, so the
    /// eighth of eight writes sent together waits 3 s, and longer on a busy
    /// server): a write retried while the first still runs gets a 412, and
    /// one more pass. It waits for an answer as long as a request may take.
    static let patientClient = makeClient(readTimeout: .seconds(60))

    /// A client that fails a connection that cannot be made at once, and a
    /// read that waits longer than `readTimeout`.
    static func makeClient(readTimeout: TimeAmount) -> HTTPClient {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5), read: readTimeout)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The most a whole request may take, body included.
    public let timeout: Duration

    /// Whether reads wait up to a minute (`patientClient`), not 8 s.
    public let patient: Bool

    public init(timeout: Duration = .seconds(120), patient: Bool = false) {
        self.timeout = timeout
        self.patient = patient
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
            let response = try await (patient ? Self.patientClient : Self.client).execute(outgoing, timeout: .init(timeout))
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

    /// Sorts a client error into what sync needs to know: was anything sent,
    /// and is anything there to answer? By the errors' types and errno codes.
    static func classify(_ error: any Error) -> TransportError {
        let detail = String(describing: error)
        if let kind = kind(of: error) { return TransportError(kind, detail) }
        return TransportError(.other, detail)
    }

    static func kind(of error: any Error) -> TransportError.Kind? {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return .connectTimeout
            case .readTimeout, .writeTimeout, .deadlineExceeded: return .timeout
            case .getConnectionFromPoolTimeout: return .connectTimeout
            case .remoteConnectionClosed: return .connectionClosed
            default: return nil
            }
        case let error as NIOConnectionError:
            // Every address tried failed alike, or the name did not resolve.
            let kinds = Set(error.connectionErrors.map { kind(of: $0.error) ?? .other })
            if kinds.count == 1, let only = kinds.first { return only }
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil { return .unknownHost }
            return kinds.contains(.connectionRefused) ? .connectionRefused : nil
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL: return .noRoute
            case ETIMEDOUT: return .connectTimeout
            case ECONNRESET, EPIPE: return .connectionClosed
            default: return nil
            }
        case is SocketAddressError.UnknownHost:
            return .unknownHost
        case is NIOSSLError, is BoringSSLError:
            return .tls
        case let error as ChannelError:
            if case .connectTimeout = error { return .connectTimeout }
            if case .ioOnClosedChannel = error { return .connectionClosed }
            if case .eof = error { return .connectionClosed }
            return nil
        default:
            return nil
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
