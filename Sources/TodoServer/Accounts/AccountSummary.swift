import Foundation

/// An account as `todo-server user list` shows it: never a token, only
/// their labels and dates.
public struct AccountSummary: Sendable, Equatable {
    public struct Token: Sendable, Equatable {
        public let label: String
        public let createdAt: Date
        public let expiresAt: Date?
        public let lastUsedAt: Date?
    }

    public let name: String
    public let createdAt: Date
    public let tokens: [Token]
}
