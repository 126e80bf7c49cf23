import Foundation

/// Shares lists on todo-server, for the account whose token a sync uses:
/// its `/shares` and `/joined` routes. Each call is one request; what the
/// server refuses comes back as `SharingError.refused` with its words.
public struct ListSharing: Sendable {
    let server: String
    let token: String?
    let transport: any HTTPTransport

    /// For the server and token of `configuration`: a todo-server's, never a
    /// CalDAV list's. Not retried: a share whose answer was lost, sent
    /// again, would be refused as made twice; a person runs it again instead.
    public init(configuration: SyncConfiguration, transport: any HTTPTransport = AsyncHTTPTransport()) throws(SharingError) {
        guard configuration.kind != .calDAV else { throw .notATodoServer(configuration.server) }
        server = configuration.server
        token = configuration.token
        self.transport = transport
    }

    /// Invites `member` to my `list`, as an editor or (`readOnly`) a viewer;
    /// my account's name, which the member joins it from.
    public func share(_ list: String, with member: String, readOnly: Bool) async throws -> String {
        let body = try await send("PUT", "/shares/\(Self.segment(list))/\(Self.segment(member))", ["role": readOnly ? "viewer" : "editor"])
        guard let answer = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], let owner = answer["owner"] as? String else {
            throw SharingError.notATodoServer(server)
        }
        return owner
    }

    public func unshare(_ list: String, with member: String) async throws {
        _ = try await send("DELETE", "/shares/\(Self.segment(list))/\(Self.segment(member))")
    }

    /// Accepts `owner`'s invitation to `list`, joined under `name`.
    public func join(_ list: String, from owner: String, as name: String) async throws {
        _ = try await send("PUT", "/joined/\(Self.segment(name))", ["owner": owner, "list": list])
    }

    /// Leaves the list joined as `name`.
    public func leave(_ name: String) async throws {
        _ = try await send("DELETE", "/joined/\(Self.segment(name))")
    }

    /// My account's name, what I share and what is shared with me.
    public func shares() async throws -> ShareSummary {
        let body = try await send("GET", "/shares")
        guard let summary = try? JSONDecoder().decode(ShareSummary.self, from: Data(body)) else {
            throw SharingError.notATodoServer(server)
        }
        return summary
    }

    private func send(_ method: String, _ path: String, _ object: [String: String]? = nil) async throws -> [UInt8] {
        var headers = ["accept": "application/json"]
        if let token { headers["authorization"] = "Bearer \(token)" }
        var body: [UInt8]?
        if let object {
            headers["content-type"] = "application/json"
            body = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let response: HTTPResponseData
        do {
            response = try await transport.send(HTTPRequestData(method: method, url: server + path, headers: headers, body: body))
        } catch let error as TransportError {
            throw SharingError.unreachable(server: server, error.kind)
        }
        guard (200..<300).contains(response.status) else { throw SharingError(response, server: server) }
        return response.body
    }

    /// One path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#", "%"])) ?? text
    }
}

/// `GET /shares`: my account's name, what I share and what is shared with me.
public struct ShareSummary: Sendable, Equatable, Decodable {
    public struct Shared: Sendable, Equatable, Decodable {
        public var list: String
        public var member: String
        public var role: String
        public var joined: Bool
    }

    public struct WithMe: Sendable, Equatable, Decodable {
        public var list: String
        public var owner: String
        public var role: String
        public var joinedAs: String?
    }

    public var account: String
    public var shared: [Shared]
    public var sharedWithMe: [WithMe]
}

/// Why sharing a list did not happen, in one line that says what to do.
public enum SharingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused it, in its words.
    case refused(status: Int, message: String)
    /// The server does not share lists: no todo-server with accounts.
    case notATodoServer(String)
    /// A token it does not take, or none.
    case unauthorized(server: String)
    case unreachable(server: String, TransportError.Kind)

    init(_ response: HTTPResponseData, server: String) {
        let message = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["error"] as? String
        switch (response.status, message) {
        case (401, _): self = .unauthorized(server: server)
        case (404, nil), (405, _): self = .notATodoServer(server)
        case (404, let message?) where message.hasPrefix("No route"): self = .notATodoServer(server)
        case (let status, let message?): self = .refused(status: status, message: message)
        case (let status, nil): self = .refused(status: status, message: "the server answered \(status)")
        }
    }

    public var description: String {
        switch self {
        case let .refused(_, message):
            // The server names its routes; a person at the command line has commands.
            message.replacingOccurrences(of: "GET /shares", with: "todo shares")
        case let .notATodoServer(server):
            "\(server) does not share lists: lists are shared through todo-server with accounts (todo sync --server URL --token TOKEN)"
        case let .unauthorized(server):
            "\(server) refused the token: give your account's token once with --token (the server's operator issues one with todo-server user token NAME)"
        case let .unreachable(server, kind):
            "cannot reach \(server): \(kind.explanation); lists are shared on the server, so try again once it answers"
        }
    }
}
