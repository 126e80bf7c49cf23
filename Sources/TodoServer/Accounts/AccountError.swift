/// A command on accounts that could not be carried out; says why and what to do.
public enum AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidName(String)
    case invalidLabel(String)
    case nameTaken(String)
    case noSuchAccount(String)
    case labelTaken(account: String, label: String)
    case noSuchToken(account: String, label: String)
    case invalidExpiry(Int)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "\(name.debugDescription) is not an account name: use 1 to 64 letters, digits, '.', '_', '-' or '@'."
        case .invalidLabel(let label):
            "\(label.debugDescription) is not a token label: use 1 to 64 characters without control characters."
        case .nameTaken(let name):
            "An account named \(name) already exists; pick another name, or issue it a token with `todo-server user token \(name)`."
        case .noSuchAccount(let name):
            "No account is named \(name); `todo-server user list` shows the accounts."
        case .labelTaken(let account, let label):
            "Account \(account) already has a token labelled \(label); choose another --name, or revoke that one first."
        case .noSuchToken(let account, let label):
            "Account \(account) has no token labelled \(label); `todo-server user list` shows its tokens."
        case .invalidExpiry(let days):
            "--expires must be a number of days from 1 to 36500, not \(days)."
        }
    }
}
