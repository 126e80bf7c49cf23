import Foundation

extension TodoItem {
    /// Whether the text contains `query`, ignoring case: the seed's
    /// `lowercased().contains`, which compares whole characters and treats
    /// canonically equivalent forms (é and e + ◌́) as equal.
    /// An empty query matches everything.
    public func matches(_ query: String) -> Bool {
        Self.text(text, matches: query)
    }

    /// `matches` for a text that is not (yet) in a `TodoItem`.
    public static func text(_ text: String, matches query: String) -> Bool {
        query.isEmpty || text.lowercased().contains(query.lowercased())
    }

    /// The form of a text that storage indexes for search: lowercased, then
    /// canonically decomposed. Whenever `matches` is true, the decomposed query
    /// occurs byte for byte in the decomposed text, so storage can narrow the
    /// search inside the database and confirm each candidate with `matches`.
    public static func searchKey(_ text: String) -> String {
        text.lowercased().decomposedStringWithCanonicalMapping
    }
}
