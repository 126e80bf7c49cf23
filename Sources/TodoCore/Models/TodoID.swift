import Foundation

/// Helpers for the short, git-like IDs the command line shows and accepts.
public enum TodoID {
    /// Never show fewer characters than this, even when fewer would be unique.
    public static let minimumPrefixLength = 4

    /// A user-typed ID or prefix, lowercased, or `.invalidID` if it cannot be one.
    public static func normalizedPrefix(_ raw: String) throws(TodoError) -> String {
        let prefix = raw.lowercased()
        let allowed = prefix.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || byte == UInt8(ascii: "-")
        }
        guard !prefix.isEmpty, prefix.utf8.count <= 36, allowed else {
            throw .invalidID(raw)
        }
        return prefix
    }

    /// The length of the shortest prefix of `id` that no neighbour shares,
    /// given its neighbours in sorted order.
    public static func uniquePrefixLength(of id: String, previous: String?, next: String?) -> Int {
        let shared = max(commonPrefixLength(id, previous), commonPrefixLength(id, next))
        return min(id.utf8.count, max(minimumPrefixLength, shared + 1))
    }

    /// How many leading UTF-8 bytes two IDs share.
    public static func commonPrefixLength(_ a: String, _ b: String?) -> Int {
        guard let b else { return 0 }
        var count = 0
        for (x, y) in zip(a.utf8, b.utf8) {
            guard x == y else { break }
            count += 1
        }
        return count
    }

    /// `items` in order, each todo kept once (the first time its ID comes).
    public static func distinct<T>(_ items: [T], by id: (T) -> UUID) -> [T] {
        var seen = Set<UUID>()
        return items.filter { seen.insert(id($0)).inserted }
    }
}
