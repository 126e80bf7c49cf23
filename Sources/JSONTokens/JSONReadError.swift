/// Why a text is not JSON that `JSONTokenizer` and the readers on it read,
/// with where it went wrong.
public enum JSONReadError: Error, Equatable, Sendable {
    /// The body starts with a UTF-8 byte order mark.
    case byteOrderMark
    /// The body looks like UTF-16 or UTF-32 (a zero byte among its first two).
    case notUTF8Encoding
    /// Bytes that are not UTF-8.
    case invalidUTF8
    /// Not RFC 8259 JSON: what was expected at which byte offset.
    case syntax(expected: String, offset: Int)
    /// A `\u` escape naming half of a surrogate pair without the other half.
    case loneSurrogate(offset: Int)
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int)
    /// The same member name twice in one object: readers disagree on which wins.
    case duplicateName(String)
    /// More members in the top-level object than the reader was asked to take.
    case tooManyMembers(limit: Int)
    /// A top-level member name written with a backslash escape.
    case escapedName(offset: Int)
    /// A string (a value or a name) holding U+0000, which PostgreSQL's
    /// `jsonb` cannot store: refused on every backend alike.
    case nulInText(offset: Int)
    /// A number no double holds: more than 17 significant digits, or a
    /// magnitude past what a double reaches (over about 1.8e308, or so
    /// small it reads as 0). An integer of 64 bits is always taken.
    case numberBeyondDouble(offset: Int)
}
