/// A key press, decoded from the bytes a terminal sends.
public enum Key: Sendable, Hashable {
    /// A printable character (typed or pasted).
    case character(Character)
    case enter, escape, backspace, tab, delete
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl and a letter, lowercase: `.control("c")` for Ctrl-C.
    case control(Character)
}

extension Key {
    /// The keys of each character of `text`, as typing it sends them; for
    /// tests and scripted input.
    public static func typing(_ text: String) -> [Key] {
        text.map { .character($0) }
    }
}
