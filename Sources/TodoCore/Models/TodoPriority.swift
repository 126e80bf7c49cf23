/// How much a todo matters, when someone said so.
public enum TodoPriority: String, Sendable, Hashable, CaseIterable, Comparable {
    case high, medium, low

    /// 1 high, 2 medium, 3 low: the stored form, in the order `--sort priority` lists.
    public var rank: Int {
        switch self {
        case .high: 1
        case .medium: 2
        case .low: 3
        }
    }

    public init?(rank: Int) {
        guard let priority = Self.allCases.first(where: { $0.rank == rank }) else { return nil }
        self = priority
    }

    /// Reads `high`, `medium`, `low`, their initials and `h`/`m`/`l`, any case.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "high", "h": self = .high
        case "medium", "med", "m": self = .medium
        case "low", "l": self = .low
        default: return nil
        }
    }

    /// Higher priority first.
    public static func < (lhs: TodoPriority, rhs: TodoPriority) -> Bool { lhs.rank < rhs.rank }
}
