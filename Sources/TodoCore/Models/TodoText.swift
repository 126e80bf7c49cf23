/// The rules a todo's text follows, shared by every way a todo is written.
public enum TodoText {
    /// The longest text a todo may hold, in characters.
    public static let maximumLength = 10_000

    /// The text trimmed of surrounding white space, or the reason it cannot be a todo.
    public static func validated(_ raw: String) throws(TodoError) -> String {
        let text = raw.trimmingWhitespace
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

    private static func isLineBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .lineSeparator
            || scalar.properties.generalCategory == .paragraphSeparator
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
