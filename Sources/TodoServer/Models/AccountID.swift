/// The account a request acts for: every todo, id, version and change
/// number belongs to one, and no request sees another's.
public struct AccountID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The one list served without accounts: with no token, or `--token` alone.
    public static let single = AccountID(0)

    public var description: String { String(rawValue) }
}
