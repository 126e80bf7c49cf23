/// The line being typed, with a cursor that moves and edits as readline's
/// does: Left and Right, Home and End (Ctrl-A, Ctrl-E), Backspace and Delete
/// anywhere, Ctrl-W a word back, Ctrl-U to the start, Ctrl-K to the end.
public struct InputLine: Sendable, Equatable {
    public private(set) var text: String
    /// Where the cursor is: how many characters come before it.
    public private(set) var cursor: Int

    /// `text`, the cursor after its last character.
    public init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    public var beforeCursor: Substring { text.prefix(cursor) }
    public var afterCursor: Substring { text.dropFirst(cursor) }

    public mutating func insert(_ character: Character) {
        text.insert(character, at: index(cursor))
        cursor += 1
    }

    /// Backspace: the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        text.remove(at: index(cursor - 1))
        cursor -= 1
    }

    /// Delete: the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: index(cursor))
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(text.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = text.count }

    /// Ctrl-W: the word before the cursor, and the spaces after it.
    public mutating func deleteWordBackward() {
        let before = Array(beforeCursor)
        var start = before.count
        while start > 0, before[start - 1].isWhitespace { start -= 1 }
        while start > 0, !before[start - 1].isWhitespace { start -= 1 }
        text.removeSubrange(index(start)..<index(cursor))
        cursor = start
    }

    /// Ctrl-U: everything before the cursor.
    public mutating func deleteToStart() {
        text.removeSubrange(text.startIndex..<index(cursor))
        cursor = 0
    }

    /// Ctrl-K: everything from the cursor on.
    public mutating func deleteToEnd() {
        text.removeSubrange(index(cursor)...)
    }

    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: offset)
    }
}
