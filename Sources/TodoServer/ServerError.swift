import Foundation
import Hummingbird

/// Something the server refuses, with the status it answers and a message
/// saying what was wrong and what the client can do.
///
/// Every error leaves as a JSON object `{"error": "...", "status": 400}`.
public struct ServerError: Error, Equatable, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra headers, such as `Allow` on 405 or `WWW-Authenticate` on 401.
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public static func notFound(id: String) -> ServerError {
        ServerError(.notFound, "No todo has id \(id).")
    }

    public static func badRequest(_ message: String) -> ServerError {
        ServerError(.badRequest, message)
    }

    public static func conflict(id: String) -> ServerError {
        ServerError(.conflict, "A todo with id \(id) already exists; use PUT or PATCH to change it.")
    }

    public static func preconditionFailed(id: String, currentVersion: Int) -> ServerError {
        ServerError(
            .preconditionFailed,
            "Todo \(id) has changed (its version is now \(currentVersion)); fetch it again and retry.",
            headers: [.eTag: ETag.string(for: currentVersion)]
        )
    }

    /// A feed cursor below the deletions still remembered: only a full resync can follow it.
    static func cursorTooOld(_ cursor: Int, retentionDays: Int64) -> ServerError {
        ServerError(
            .gone,
            "Cursor \(cursor) is older than the deletions this server still remembers "
                + "(tombstones are kept \(retentionDays) days). Do a full resync: GET /todos, "
                + "then continue from its X-Cursor header."
        )
    }

    /// A feed cursor beyond the latest change: the data was replaced.
    static func cursorAhead(_ cursor: Int, latest: Int) -> ServerError {
        ServerError(
            .gone,
            "Cursor \(cursor) is ahead of this server (its latest is \(latest)): the server's data was "
                + "replaced. Do a full resync: GET /todos, then continue from its X-Cursor header."
        )
    }

    /// The account was removed while its token was in use.
    static let accountGone = ServerError(
        .unauthorized,
        "This token's account no longer exists; ask the server's operator for a new one.",
        headers: [.wwwAuthenticate: "Bearer"]
    )

    /// Too many event streams open (`GET /todos/events`): `reason` says whose limit.
    static func tooManyStreams(_ reason: String) -> ServerError {
        ServerError(
            .tooManyRequests,
            reason + "; close one (another todo ui or todo sync --watch) or try again later.",
            headers: [.retryAfter: "30"]
        )
    }

    /// Storage failed for a reason that is not the client's.
    public static func storage(_ reason: String) -> ServerError {
        ServerError(.internalServerError, "The server could not access its database: \(reason)")
    }
}

extension ServerError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: jsonBody)))
    }

    /// `{"error": message, "status": code}`, escaped by JSONEncoder.
    var jsonBody: String {
        struct Body: Encodable {
            let error: String
            let status: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Body(error: message, status: status.code))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension ServerError: CustomStringConvertible {
    public var description: String { "\(status.code) \(message)" }
}
