import Foundation

/// A todo's id as the client gave it. Both forms share one key space: `7` and
/// `"7"` name the same todo, and the URL `/todos/7` reaches it.
public enum ItemID: Sendable, Equatable {
    case string(String)
    case number(Int64)

    /// Longest id accepted, in bytes of UTF-8: a count of characters would let
    /// one letter carry any number of combining accents.
    public static let maxKeyBytes = 256

    /// The string form: the key the server stores and routes by.
    public var key: String {
        switch self {
        case .string(let string): string
        case .number(let number): String(number)
        }
    }

    /// Why `key` cannot name a todo, or nil when it can; the same rule for
    /// an id in a body and in a URL.
    ///
    /// NUL is refused because SQLite's C interface reads text up to it: the id
    /// `a\u0000zzz` would reach the todo `a`.
    static func problem(with key: String) -> String? {
        if key.isEmpty { return "is empty" }
        if key.utf8.count > maxKeyBytes { return "is longer than \(maxKeyBytes) bytes in UTF-8" }
        if key.utf8.contains(0) { return "contains the character NUL (\\u0000)" }
        return nil
    }

    /// The key a URL's path segment names (`/todos/SEGMENT`), percent-decoded;
    /// 400 when it cannot name a todo.
    static func key(inPath segment: some StringProtocol) throws -> String {
        let raw = String(segment)
        // Most ids have no escapes: they skip Foundation's decoder, 4% of a GET's time.
        let key = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        if let problem = problem(with: key) {
            throw ServerError.badRequest("The todo id in the URL \(problem).")
        }
        return key
    }
}
