import Foundation
import TodoCore
import TodoXML

/// Finds an account's task lists on a CalDAV server, as RFC 6764 and RFC
/// 4791 say a client does: the server's `/.well-known/caldav` (or the URL
/// given), the account's principal (`current-user-principal`), its calendar
/// home (`calendar-home-set`), then the collections in the home that are
/// calendars. A calendar whose `supported-calendar-component-set` leaves
/// out VTODO holds events only: not a task list. The URL given may also be
/// a principal, a home or a list itself.
///
/// Every answer is XML read by `XMLReader` (no DTD, no entity but the
/// predefined). Redirects are followed here, up to five, keeping the method
/// and the credentials on the same server only.
public struct CalDAVDiscovery: Sendable {
    /// A calendar collection of the account.
    public struct Collection: Sendable, Equatable {
        public var url: String
        public var name: String
        /// Whether it takes VTODOs: a task list.
        public var holdsTasks: Bool
    }

    let transport: any HTTPTransport
    let login: CalDAVLogin

    public init(login: CalDAVLogin, transport: any HTTPTransport = AsyncHTTPTransport(timeout: .seconds(30))) {
        self.login = login
        self.transport = transport
    }

    /// The URL a user typed, without `caldav+`; http or https with a host, else `.invalidServerURL`.
    public static func serverURL(_ given: String) throws(SyncError) -> URL {
        let text = SyncConfiguration.isCalDAV(given) ? String(given.dropFirst(SyncConfiguration.calDAVPrefix.count)) : given
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw .invalidServerURL(given)
        }
        return url
    }

    /// Scheme, host and port: what a CalDAV login is remembered for.
    public static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "https")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Every calendar of the account, task lists first, each kind by name.
    public func collections(at given: String) async throws(SyncError) -> [Collection] {
        let start = try Self.serverURL(given)
        var found: Properties?
        var tried: [String] = []
        // The URL itself first if it names a path; the well-known address, else.
        var candidates = [start]
        if start.path.isEmpty || start.path == "/" {
            candidates.insert(URL(string: "/.well-known/caldav", relativeTo: start)!.absoluteURL, at: 0)
        } else {
            candidates.append(URL(string: "/.well-known/caldav", relativeTo: start)!.absoluteURL)
        }
        for candidate in candidates {
            tried.append(candidate.absoluteString)
            if let properties = try await propfind(candidate, depth: 0, Self.discoveryBody).first {
                found = properties
                break
            }
        }
        guard var properties = found else {
            throw .notCalDAV(url: start.absoluteString, reason: "nothing answers CalDAV at \(tried.joined(separator: " or "))")
        }
        if properties.isCalendar {
            return [Collection(url: properties.url.absoluteString, name: properties.name, holdsTasks: properties.holdsTasks)]
        }
        if properties.home == nil, let principal = properties.principal {
            guard let answer = try await propfind(principal, depth: 0, Self.discoveryBody).first else {
                throw .notCalDAV(url: principal.absoluteString, reason: "the account's principal does not answer")
            }
            properties = answer
        }
        guard let home = properties.home else {
            throw .notCalDAV(url: start.absoluteString, reason: "it names no calendar home for \(login.user)")
        }
        let members = try await propfind(home, depth: 1, Self.discoveryBody)
        return members.filter(\.isCalendar)
            .map { Collection(url: $0.url.absoluteString, name: $0.name, holdsTasks: $0.holdsTasks) }
            .sorted { ($0.holdsTasks ? 0 : 1, $0.name, $0.url) < ($1.holdsTasks ? 0 : 1, $1.name, $1.url) }
    }

    // MARK: - PROPFIND

    static let discoveryBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:prop>
            <d:current-user-principal/><c:calendar-home-set/><d:resourcetype/>
            <d:displayname/><c:supported-calendar-component-set/>
          </d:prop>
        </d:propfind>
        """

    /// What a resource says of itself.
    struct Properties: Sendable {
        var url: URL
        var name = ""
        var principal: URL?
        var home: URL?
        var isCalendar = false
        /// nil: the server names no component set, so every kind is taken (RFC 4791 5.2.3).
        var components: Set<String>?

        var holdsTasks: Bool { components?.contains("VTODO") ?? true }
    }

    /// The resources a PROPFIND answers, or none when nothing is there
    /// (404, 405: try elsewhere); throws what a user must fix.
    func propfind(_ url: URL, depth: Int, _ body: String) async throws(SyncError) -> [Properties] {
        var target = url
        for _ in 0..<6 {
            var headers = ["Depth": String(depth), "Content-Type": "application/xml; charset=utf-8"]
            if target.host == url.host { headers["Authorization"] = login.header }
            let request = HTTPRequestData(method: "PROPFIND", url: target.absoluteString, headers: headers, body: Array(body.utf8))
            let response: HTTPResponseData
            do {
                response = try await transport.send(request)
            } catch let error as TransportError {
                throw .unreachable(server: url.absoluteString, request: "PROPFIND \(target.absoluteString)", kind: error.kind, queued: nil)
            } catch {
                throw .unreachable(server: url.absoluteString, request: "PROPFIND \(target.absoluteString)", kind: .other, queued: nil)
            }
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"], let next = URL(string: location, relativeTo: target) else {
                    throw .notCalDAV(url: target.absoluteString, reason: "it redirects (\(response.status)) without saying where")
                }
                target = next.absoluteURL
                continue
            case 401:
                throw .wrongLogin(url: target.absoluteString, user: login.user)
            case 403:
                throw .httpStatus(request: "PROPFIND \(target.absoluteString)", status: 403, body: "the account \(login.user) may not read it")
            case 404, 405, 501:
                return []
            case 207:
                return try Self.properties(in: response.body, base: target)
            default:
                throw .notCalDAV(url: target.absoluteString, reason: "it answered PROPFIND with \(response.status), not a WebDAV multistatus")
            }
        }
        throw .notCalDAV(url: url.absoluteString, reason: "it redirects more than five times")
    }

    /// The resources of a multistatus, with the properties found (status 200).
    static func properties(in body: [UInt8], base: URL) throws(SyncError) -> [Properties] {
        let root: XMLElement
        do {
            root = try XMLReader.read(body)
        } catch {
            throw .notCalDAV(url: base.absoluteString, reason: "its answer is not XML a client can read (\(error.message))")
        }
        guard root.is("DAV:", "multistatus") else {
            throw .notCalDAV(url: base.absoluteString, reason: "its answer is not a WebDAV multistatus")
        }
        func resolve(_ element: XMLElement?) -> URL? {
            guard let href = element?.child("DAV:", "href")?.text.trimmedASCIIWhitespace, !href.isEmpty else {
                return nil
            }
            return URL(string: href, relativeTo: base)?.absoluteURL
        }
        return root.children("DAV:", "response").compactMap { response in
            guard let url = resolve(response) else { return nil }
            var properties = Properties(url: url)
            for propstat in response.children("DAV:", "propstat") {
                let status = propstat.child("DAV:", "status")?.text ?? ""
                guard status.contains(" 200 "), let prop = propstat.child("DAV:", "prop") else { continue }
                if let name = prop.child("DAV:", "displayname")?.text.trimmedASCIIWhitespace, !name.isEmpty {
                    properties.name = name
                }
                properties.principal = resolve(prop.child("DAV:", "current-user-principal")) ?? properties.principal
                properties.home = resolve(prop.child(CalDAVLogin.calDAV, "calendar-home-set")) ?? properties.home
                if let type = prop.child("DAV:", "resourcetype"), type.child(CalDAVLogin.calDAV, "calendar") != nil {
                    properties.isCalendar = true
                }
                if let set = prop.child(CalDAVLogin.calDAV, "supported-calendar-component-set") {
                    properties.components = Set(set.children(CalDAVLogin.calDAV, "comp").compactMap { $0.attribute("name")?.uppercased() })
                }
            }
            if properties.name.isEmpty {
                properties.name = url.path.split(separator: "/").last.map { $0.removingPercentEncoding ?? String($0) } ?? url.absoluteString
            }
            return properties
        }
    }
}

/// An account's name and password on a CalDAV server (HTTP Basic).
public struct CalDAVLogin: Sendable, Hashable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    static let calDAV = "urn:ietf:params:xml:ns:caldav"

    /// `Basic base64(user:password)`.
    public var header: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
