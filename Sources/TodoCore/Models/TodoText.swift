/// The rules a todo's text follows, shared by every way a todo is written.
public enum TodoText {
    /// The longest text a todo may hold, in characters.
    public static let maximumLength = 10_000

    /// The text trimmed of surrounding white space, tabs turned into spaces,
    /// or the reason it cannot be a todo.
    public static func validated(_ raw: String) throws(TodoError) -> String {
        isPlainLine(raw) ? raw : try validatedByUnicodeRules(raw)
    }

    /// `validated` for any text, looking up each scalar's Unicode properties.
    static func validatedByUnicodeRules(_ raw: String) throws(TodoError) -> String {
        // A tab pasted into a todo is a space to the reader, not a control character.
        let text = raw.replacingTabsWithSpaces.trimmingWhitespace
        if text.isEmpty {
            throw .emptyText
        }
        if text.count > maximumLength {
            throw .textTooLong(length: text.count, limit: maximumLength)
        }
        if text.unicodeScalars.contains(where: isLineBreakOrControl) {
            throw .textHasControlCharacters
        }
        return text
    }

    /// Whether `text` is valid as it stands, told without Unicode lookups:
    /// within the limit in bytes (so in characters), written in printable
    /// ASCII and Latin letters (U+00A0 to U+024F hold no control character and
    /// no line break), and not starting or ending with a space. Most todos are.
    public static func isPlainLine(_ text: String) -> Bool {
        guard text.utf8.count <= maximumLength,
              let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              !isPlainSpace(first), !isPlainSpace(last)
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            (0x20..<0x7F).contains(scalar.value) || (0xA0..<0x250).contains(scalar.value)
        }
    }

    /// The only white space among the scalars `isPlainLine` accepts.
    private static func isPlainSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{A0}"
    }

    private static func isLineBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator
    }
}

extension String {
    var replacingTabsWithSpaces: String {
        guard unicodeScalars.contains("\t") else { return self }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: unicodeScalars.lazy.map { $0 == "\t" ? " " : $0 })
        return String(scalars)
    }

    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

extension String {
    /// Without the spaces, tabs and line breaks around it: what XML and
    /// iCalendar values are read without. Byte by byte, where Foundation's
    /// `trimmingCharacters(in:)` goes through NSString (a fifth of reading a
    /// CalDAV list of 10,000 tasks).
    public var trimmedASCIIWhitespace: String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        if first == bytes.startIndex, bytes.index(after: last) == bytes.endIndex { return self }
        return String(self[first...last])
    }
}
