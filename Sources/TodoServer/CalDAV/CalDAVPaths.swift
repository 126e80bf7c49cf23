import Foundation

/// Where an account's CalDAV resources are.
struct CalDAVPaths: Sendable {
    let user: String

    static let collectionName = "tasks"
    /// The principal's name when the server has no accounts (the single list).
    static let singleListUser = "todo"

    static let utc = TimeZone(identifier: "UTC")!
    /// Where a floating time (no Z, no TZID) and a whole day are read: the
    /// server machine's zone. todo-server knows no user's zone, and a
    /// family's server keeps its family's time; set TZ to choose another.
    static let floating = TimeZone.current
    static let calendarContentType = "text/calendar; charset=utf-8; component=VTODO"
    /// Characters a name keeps in a path; every other is percent-encoded.
    static let nameCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/%;?#"))

    var principal: String { "/dav/\(Self.encode(user))/" }
    var collection: String { principal + Self.collectionName + "/" }

    func href(_ name: String) -> String { collection + Self.encode(name) }

    /// The resource name an href (a path or a whole URL) in this collection
    /// names; nil for another's. Compared segment by segment, decoded, so
    /// `%40` and `@` are the same.
    func name(fromHref href: String) -> String? {
        var path = href
        if let url = URL(string: href), url.scheme != nil { path = url.path(percentEncoded: true) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.count == 4, segments[0] == "dav", segments[1] == user, segments[2] == Self.collectionName else { return nil }
        return segments[3]
    }

    static func encode(_ text: String) -> String {
        // Most names (`UID.ics`) need no encoding: checked byte by byte first.
        if text.utf8.allSatisfy(isPlain) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: nameCharacters) ?? text
    }

    /// Letters, digits and `-._~@+=`: kept as they are in every path.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"), UInt8(ascii: "+"),
             UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    /// A sync token is a URI (RFC 6578): the account's change counter in it.
    static func syncToken(_ counter: Int) -> String { "urn:x-todo-server:sync:\(counter)" }

    static func counter(fromSyncToken token: String) -> Int? {
        guard token.hasPrefix("urn:x-todo-server:sync:") else { return nil }
        return Int(token.dropFirst("urn:x-todo-server:sync:".count))
    }
}
