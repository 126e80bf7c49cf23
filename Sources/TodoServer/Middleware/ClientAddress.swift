import Foundation
import Hummingbird

/// The address failed authentications are counted against.
enum ClientAddress {
    /// The peer's IP address; when the peer is a trusted proxy, the address
    /// it says it forwards for (the last `X-Forwarded-For` entry, the one the
    /// proxy itself added). Without a socket (router tests), "unknown".
    static func of(_ request: Request, _ context: TodoRequestContext, trustedProxies: Set<String>) -> String {
        guard let peer = context.remoteAddress else { return "unknown" }
        guard trustedProxies.contains(peer), let forwarded = request.headers[values: .xForwardedFor].last else { return peer }
        let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
        return last.isEmpty ? peer : last
    }
}

extension HTTPFields.Element.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
