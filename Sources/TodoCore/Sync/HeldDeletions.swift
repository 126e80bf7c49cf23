import Foundation

/// Deletions a sync held back instead of making them: the safety rail
/// stopped them (more than half of the synced todos here, or all of them, or
/// a server whose list came back empty), and everything else was synced.
/// `todo sync --force`, or `F` in the view, makes them.
public struct HeldDeletions: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// More than half of the synced todos here (and more than a few).
        case many
        /// Every synced todo here.
        case everything
        /// The server's list came back empty: nothing at all was synced.
        case emptyList
    }

    public var reason: Reason
    /// How many todos here the sync would delete.
    public var count: Int
    /// How many synced todos there are here.
    public var synced: Int
    /// The texts of a few of them.
    public var examples: [String]

    public init(_ reason: Reason, count: Int, synced: Int, examples: [String] = []) {
        self.reason = reason
        self.count = count
        self.synced = synced
        self.examples = examples
    }

    /// What the sync would do: `would delete 20000 of the 20005 synced todos here ("milk" and 19999 more)`.
    public var description: String {
        switch reason {
        case .many:
            "would delete \(count) of the \(synced) synced todos here (\(Self.quoted(examples, of: count)))"
        case .everything:
            "would delete all \(count) synced todos here" + (examples.isEmpty ? "" : " (\(Self.quoted(examples, of: count)))")
        case .emptyList:
            "would delete all \(count) synced todos here: the server's list came back empty"
        }
    }

    /// Up to three texts, quoted, and how many more there are.
    public static func quoted(_ texts: [String], of count: Int) -> String {
        let shown = texts.prefix(3).map { "\"\($0.count > 40 ? String($0.prefix(40)) + "…" : $0)\"" }
        let more = count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? (shown.isEmpty ? "" : " and ") + "\(more) more" : "")
    }
}
