/// One of the todos an ambiguous ID prefix names, as the error lists it
/// (git lists the candidates of an ambiguous object name the same way).
public struct IDMatch: Sendable, Equatable {
    /// The most candidates an error lists.
    public static let listed = 10

    public var shortID: String
    public var text: String

    public init(shortID: String, text: String) {
        self.shortID = shortID
        self.text = text
    }

    /// The candidates, one indented line each, and how many were left out.
    public static func listing(_ candidates: [IDMatch], of count: Int) -> String {
        guard !candidates.isEmpty else { return "" }
        let width = candidates.map(\.shortID.count).max() ?? 0
        var lines = candidates.map { match in
            "\n  " + match.shortID + String(repeating: " ", count: width - match.shortID.count) + "  " + match.text
        }
        if count > candidates.count {
            lines.append("\n  … and \(count - candidates.count) more")
        }
        return ":" + lines.joined()
    }
}
