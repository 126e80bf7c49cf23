/// A todo's id as the client gave it. Both forms share one key space: `7` and
/// `"7"` name the same todo, and the URL `/todos/7` reaches it.
public enum TodoID: Sendable, Equatable {
    case string(String)
    case number(Int64)

    /// The string form: the key the server stores and routes by.
    public var key: String {
        switch self {
        case .string(let string): string
        case .number(let number): String(number)
        }
    }
}
