import Foundation

extension TodoItem {
    /// Whether the text contains `query`, ignoring case: the seed's
    /// `lowercased().contains`, comparing whole characters, with canonically
    /// equivalent forms (é and e + ◌́) equal. An empty query matches everything.
    public func matches(_ query: String) -> Bool {
        Self.text(text, matches: query)
    }

    /// `matches` for a text that is not (yet) in a `TodoItem`.
    public static func text(_ text: String, matches query: String) -> Bool {
        // The standard library's search compares Characters. Foundation's
        // `contains` (`range(of:)`) does not always: it finds "é" + two
        // accents inside "eé", and "é" + two accents + "é" across "eáé".
        query.isEmpty || text.lowercased().firstRange(of: query.lowercased()) != nil
    }

    /// The form of a text that storage indexes for search: lowercased,
    /// canonically decomposed, without combining marks (é becomes e).
    ///
    /// Whenever `matches` is true, the key of the query occurs byte for byte in
    /// the key of the text, so storage can narrow a search inside the database
    /// and confirm each candidate with `matches`: canonically equivalent
    /// characters have one decomposition, so a run of characters equal to the
    /// query's has the query's key. Marks are dropped to keep keys short and
    /// simple; that only admits extra candidates.
    public static func searchKey(_ text: String) -> String {
        asciiSearchKey(text) ?? latinSearchKey(text) ?? unicodeSearchKey(text)
    }

    /// `searchKey` for text that is all ASCII, else nil: ASCII has no
    /// decompositions and no marks, so lowercasing A–Z is the whole job. Most
    /// todos are ASCII, and an import or a sync computes a key per todo.
    static func asciiSearchKey(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { key in
                for (index, byte) in bytes.enumerated() {
                    key[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }

    /// `searchKey` for text written only in scalars below U+0250 (Latin
    /// letters with their accents), else nil: from a table of each scalar's key.
    ///
    /// Lowercasing maps each scalar on its own, and none of these scalars is a
    /// combining mark, so canonical reordering never crosses from one to the
    /// next: the key of the text is the keys of its scalars joined.
    static func latinSearchKey(_ text: String) -> String? {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                key.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            } else if scalar.value < UInt32(latinSearchKeys.count) {
                key.append(contentsOf: latinSearchKeys[Int(scalar.value)].utf8)
            } else {
                return nil
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// The key of each scalar below U+0250, computed once by the Unicode rules.
    static let latinSearchKeys: [String] = (0..<0x250).map { value in
        Unicode.Scalar(UInt32(value)).map { unicodeSearchKey(String($0)) } ?? ""
    }

    /// `searchKey` by the Unicode rules, for any text.
    static func unicodeSearchKey(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where !scalar.properties.isGraphemeExtend && scalar != "\u{200D}" {
            key.append(scalar)
        }
        return String(key)
    }
}
