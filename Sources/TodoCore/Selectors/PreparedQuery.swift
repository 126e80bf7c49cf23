/// A search query made ready to confirm many candidates, answering exactly
/// as `TodoItem.text(_:matches:)` does.
///
/// Where the text and the query are written only in scalars below U+0250
/// (ASCII and the Latin letters with their accents, none of them a combining
/// mark), every scalar is a whole character, and lowercasing maps each to one
/// scalar: containment is then a search of lowercased scalars, done straight
/// on the text's UTF-8 bytes. Anything else (other scripts, marks, emoji, a
/// letter such as İ whose lowercase takes two scalars) goes to `matches`. A
/// wide query ("e" found in half a million todos) confirms each candidate
/// this way instead of through Foundation.
public struct PreparedQuery: Sendable {
    public let query: String
    /// The query's lowercased scalars, if it has the simple form.
    private let scalars: [UInt32]?

    public init(_ query: String) {
        self.query = query
        var scalars: [UInt32] = []
        for scalar in query.unicodeScalars {
            guard let lower = Self.simpleLowercase(scalar.value) else {
                self.scalars = nil
                return
            }
            scalars.append(lower)
        }
        self.scalars = scalars
    }

    /// Whether `text` contains the query, ignoring case, as `TodoItem.text(_:matches:)` says.
    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches(utf8: $0) }
    }

    /// `matches` for text given as its UTF-8 bytes.
    public func matches(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let scalars else { return TodoItem.text(String(decoding: text, as: UTF8.self), matches: query) }
        if scalars.isEmpty { return true }
        // Decode at most two-byte sequences: every scalar below U+0250 is one or two bytes.
        var lowered: [UInt32] = []
        lowered.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            let value: UInt32
            if byte < 0x80 {
                value = UInt32(byte)
                index += 1
            } else if byte & 0xE0 == 0xC0, index + 1 < text.count {
                value = UInt32(byte & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
                index += 2
            } else {
                return TodoItem.text(String(decoding: text, as: UTF8.self), matches: query)
            }
            guard let lower = Self.simpleLowercase(value) else {
                return TodoItem.text(String(decoding: text, as: UTF8.self), matches: query)
            }
            lowered.append(lower)
        }
        guard lowered.count >= scalars.count else { return false }
        let first = scalars[0]
        for start in 0...(lowered.count - scalars.count) where lowered[start] == first {
            var offset = 1
            while offset < scalars.count, lowered[start + offset] == scalars[offset] { offset += 1 }
            if offset == scalars.count { return true }
        }
        return false
    }

    /// The lowercase of a scalar below U+0250 when it is one scalar below
    /// U+0250 and neither is a line break or carriage return; else nil.
    static func simpleLowercase(_ value: UInt32) -> UInt32? {
        guard value < UInt32(lowercaseTable.count) else { return nil }
        let lower = lowercaseTable[Int(value)]
        return lower == UInt32.max ? nil : lower
    }

    /// Each scalar's lowercase by the Unicode rules, or `UInt32.max` where it is not simple.
    private static let lowercaseTable: [UInt32] = (0..<0x250).map { value in
        // \r and \n: "\r\n" is one character.
        guard value != 0x0A, value != 0x0D, let scalar = Unicode.Scalar(UInt32(value)) else { return UInt32.max }
        let lower = String(scalar).lowercased().unicodeScalars
        guard lower.count == 1, let only = lower.first, only.value < 0x250 else { return UInt32.max }
        return only.value
    }
}
