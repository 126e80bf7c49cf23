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

    /// The form of a text that storage indexes for search: lowercased,
    /// canonically decomposed, without combining marks (é becomes e).
    ///
    /// Whenever `matches` is true, the key of the query occurs byte for byte in
    /// the key of the text, so storage can narrow a search inside the database
    /// and confirm each candidate with `matches`. Marks are dropped because
    /// Foundation's `contains` does not always compare them one for one
    /// ("eé" contains "é" + ◌́); dropping them only admits extra candidates.
    public static func searchKey(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where !scalar.properties.isGraphemeExtend && scalar != "\u{200D}" {
            key.append(scalar)
        }
        return String(key)
    }
}
