import Foundation

/// A PostgreSQL database named by a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
public struct PostgresLocation: Sendable, Equatable {
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it (libpq's default).
        case prefer
        /// TLS or no connection.
        case require
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String, tls: TLSMode = .prefer) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses the URL; without a password in it, `PGPASSWORD` is used if set.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ServerDatabaseError) {
        let example = "postgres://USER@HOST:PORT/DATABASE"
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw ServerDatabaseError("\(url) is not a PostgreSQL URL; write it as \(example).")
        }
        guard let user = components.user, !user.isEmpty else {
            throw ServerDatabaseError("\(Self.redacted(url)) names no user; write it as \(example).")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw ServerDatabaseError("\(Self.redacted(url)) names no database; write it as \(example).")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw ServerDatabaseError(
                    "\(Self.redacted(url)): the only parameter understood is sslmode=disable, prefer or require, not \(item.name)=\(item.value ?? "")."
                )
            }
            tls = mode
        }
        self.init(
            host: host,
            port: components.port ?? 5432,
            user: components.user?.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding ?? environment["PGPASSWORD"],
            database: database.removingPercentEncoding ?? database,
            tls: tls
        )
    }

    /// The URL without its password.
    public var displayName: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    private static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
