import JSONTokens

extension JSONReadError {
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
        case .nulInText(let offset):
            "The text at byte \(offset) holds the character NUL (U+0000, \\u0000), which is not stored; remove it."
        case .numberBeyondDouble(let offset):
            "The number at byte \(offset) has more digits than a double holds (at most 17 significant digits, within ±1.8e308 and not rounding to 0); send it as a string to keep it exactly."
        case .escapedName(let offset):
            "Field names written with a backslash escape are not supported (byte \(offset)); write them as plain text, without quotes or backslashes."
        }
    }
}
