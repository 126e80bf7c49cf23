/// Why a request body is not JSON the server reads, with where it went wrong.
enum JSONReadError: Error, Equatable, Sendable {
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

    /// What was wrong, and what the client can do, for a 400's message.
    var message: String {
        switch self {
        case .byteOrderMark:
            "The request body starts with a byte order mark; send UTF-8 JSON without one."
        case .notUTF8Encoding:
            "The request body looks like UTF-16 or UTF-32; send it as UTF-8."
        case .invalidUTF8:
            "The request body is not valid UTF-8 text."
        case .syntax(let expected, let offset):
            "The request body is not valid JSON: expected \(expected) at byte \(offset)."
        case .loneSurrogate(let offset):
            "The request body is not valid JSON: the \\u escape at byte \(offset) is half a surrogate pair."
        case .tooDeep(let limit):
            "The request body nests arrays and objects more than \(limit) deep."
        case .duplicateName(let name):
            "The request body names \(name.debugDescription) twice in one object; send each name once."
        case .tooManyMembers(let limit):
            "The todo has more than \(limit) fields; at most \(limit) are allowed (nest the rest in an object)."
        case .escapedName(let offset):
            "Field names written with a backslash escape are not supported (byte \(offset)); write them as plain text, without quotes or backslashes."
        }
    }
}
