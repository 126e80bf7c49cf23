/// Reads a request body as RFC 8259 JSON, once, in time linear in its size.
///
/// This is the only way a body is read before it is stored, so what the
/// checks see is what SQLite stores and what every client reads back. It
/// refuses what readers disagree on: a name twice in one object (first or
/// last wins, depending on the reader), half a surrogate pair, a top-level
/// name written with an escape (SQLite's JSON paths compare names as
/// written), JSON5's extensions such as trailing commas, and nesting deeper
/// than `maxDepth`, which bounds the work of every later reader too. Numbers
/// are only checked against the grammar, never converted, so their text is
/// kept exactly (`1e999` included).
struct StrictJSONReader {
    /// Deepest nesting of arrays and objects accepted, the body's own object included.
    static let maxDepth = 64

    /// A body's top-level value and, when it is an object, its members by name.
    struct Document: Sendable, Equatable {
        let value: JSONValue
        let members: [String: JSONValue]
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxMembers: Int
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxMembers: Int) {
        self.bytes = bytes
        self.maxMembers = maxMembers
    }

    /// Reads `body`, which must hold exactly one JSON value (with whitespace
    /// around it) and, if it is an object, at most `maxMembers` members: past
    /// that it stops, rather than collecting members only to refuse them.
    static func read(_ body: [UInt8], maxMembers: Int = .max) throws(JSONReadError) -> Document {
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { throw .byteOrderMark }
        if body.prefix(2).contains(0) { throw .notUTF8Encoding }
        // Checked up front by the standard library, so below a byte of 0x80
        // or more is always part of a valid character inside a string.
        guard String(validating: body, as: UTF8.self) != nil else { throw .invalidUTF8 }
        let result = body.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) -> Document in
                var reader = StrictJSONReader(bytes: buffer, maxMembers: maxMembers)
                var members: [String: JSONValue] = [:]
                reader.skipWhitespace()
                let value = try reader.value(depth: 0, members: &members)
                reader.skipWhitespace()
                guard reader.position == buffer.count else { throw reader.syntax("the end of the body") }
                return Document(value: value, members: members)
            }
        }
        return try result.get()
    }

    // MARK: - Values

    /// One value; for the top-level object (`depth` 0), its members go to `members`.
    private mutating func value(depth: Int, members: inout [String: JSONValue]) throws(JSONReadError) -> JSONValue {
        switch peek() ?? 0 {
        case UInt8(ascii: "{"):
            try object(depth: depth + 1, members: &members)
            return .object
        case UInt8(ascii: "["):
            try array(depth: depth + 1)
            return .array
        case UInt8(ascii: "\""):
            return .string(try string().text)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw syntax("a value")
        }
    }

    private mutating func object(depth: Int, members: inout [String: JSONValue]) throws(JSONReadError) {
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var names = Set<String>()
        var nested: [String: JSONValue] = [:]
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw syntax("a member name in double quotes") }
            let nameOffset = position
            let name = try string()
            if depth == 1, name.escaped { throw .escapedName(offset: nameOffset) }
            guard names.insert(name.text).inserted else { throw .duplicateName(name.text) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            let member = try value(depth: depth, members: &nested)
            if depth == 1 {
                members[name.text] = member
                guard members.count <= maxMembers else { throw .tooManyMembers(limit: maxMembers) }
            }
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return
        }
    }

    private mutating func array(depth: Int) throws(JSONReadError) {
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        var ignored: [String: JSONValue] = [:]
        while true {
            _ = try value(depth: depth, members: &ignored)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, typed as an integer when it is one that fits.
    private mutating func number() throws(JSONReadError) -> JSONValue {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else {
            guard try digits() > 0 else { throw syntax("a digit") }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard try digits() > 0 else { throw syntax("a digit after '.'") }
            isInteger = false
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard try digits() > 0 else { throw syntax("a digit in the exponent") }
            isInteger = false
        }
        guard isInteger, let integer = Int64(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        else { return .number }
        return .integer(integer)
    }

    private mutating func digits() throws(JSONReadError) -> Int {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            position += 1
        }
        return position - start
    }

    // MARK: - Strings

    /// A string's decoded text, and whether it was written with any escape.
    private mutating func string() throws(JSONReadError) -> (text: String, escaped: Bool) {
        position += 1
        let start = position
        // Most strings have no escape: their bytes are their text.
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw syntax("a control character to be escaped") }
            position += 1
        }
        guard let byte = peek() else { throw syntax("a closing '\"'") }
        if byte == UInt8(ascii: "\"") {
            position += 1
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self), false)
        }
        var text = Array(bytes[start..<position])
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return (String(decoding: text, as: UTF8.self), true)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0..<0x20:
                throw syntax("a control character to be escaped")
            default:
                text.append(byte)
                position += 1
            }
        }
        throw syntax("a closing '\"'")
    }

    /// One escape sequence, appended to `text` as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(JSONReadError) {
        let start = position
        position += 1
        guard let letter = peek() else { throw syntax("an escape") }
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xDC00...0xDFFF).contains(scalar) { throw .loneSurrogate(offset: start) }
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), peek(at: position + 1) == UInt8(ascii: "u") else {
                    throw .loneSurrogate(offset: start)
                }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(offset: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            // Every value left is a valid scalar: surrogates were handled above.
            text.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            position -= 1
            throw syntax("an escape (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")
        }
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else { throw syntax("four hexadecimal digits") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Bytes

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private func peek(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ description: String) throws(JSONReadError) {
        guard peek() == byte else { throw syntax(description) }
        position += 1
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let start = position
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard peek() == expected else {
                position = start
                throw syntax("a value")
            }
            position += 1
        }
    }

    private func syntax(_ expected: String) -> JSONReadError {
        .syntax(expected: expected, offset: position)
    }
}
