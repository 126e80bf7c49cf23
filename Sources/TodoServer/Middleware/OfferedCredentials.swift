import Foundation
import Hummingbird

/// What a request's `Authorization` header offers: a bearer token (the JSON
/// API's), or HTTP Basic's user name and password (what CalDAV apps send),
/// the password being a token and the user name its account's.
struct OfferedCredentials: Equatable {
    let token: [UInt8]
    /// The user name of Basic credentials; nil for a bearer token.
    let user: String?

    init?(_ request: Request) {
        let header = request.headers[.authorization] ?? ""
        if let token = BearerTokenMiddleware.bearerToken(header) {
            self.token = token
            self.user = nil
        } else if let (user, password) = Self.basic(header), !password.isEmpty {
            self.token = Array(password.utf8)
            self.user = user
        } else {
            return nil
        }
    }

    /// `Basic base64(user:password)`, the scheme's name in any case (RFC 7617).
    static func basic(_ header: String) -> (user: String, password: String)? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// Whether `request` is one of CalDAV's, whose clients know only Basic:
    /// on CalDAV's paths, or a WebDAV method anywhere (a client given the
    /// server's base address asks `PROPFIND /`), or OPTIONS on `/`.
    static func isCalDAV(_ request: Request) -> Bool {
        let path = request.uri.path
        if path == "/dav" || path.hasPrefix("/dav/") || path.hasPrefix("/.well-known/caldav") { return true }
        if davMethods.contains(request.method.rawValue) { return true }
        return request.method == .options && (path == "/" || path.isEmpty)
    }

    static let davMethods: Set<String> = [
        "PROPFIND", "PROPPATCH", "REPORT", "MKCOL", "MKCALENDAR", "COPY", "MOVE", "LOCK", "UNLOCK", "ACL",
    ]

    /// The challenges of a 401: to a CalDAV request, Basic with the realm
    /// first, then Bearer, so a client that does only Basic finds it; to the
    /// JSON API's, Bearer.
    static func challenges(for request: Request) -> HTTPFields {
        var fields = HTTPFields()
        if isCalDAV(request) { fields.append(HTTPFields.Element(name: .wwwAuthenticate, value: #"Basic realm="todo-server", charset="UTF-8""#)) }
        fields.append(HTTPFields.Element(name: .wwwAuthenticate, value: "Bearer"))
        return fields
    }
}
