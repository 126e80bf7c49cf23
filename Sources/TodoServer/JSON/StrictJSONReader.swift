import JSONTokens

/// Reads a request body as RFC 8259 JSON, once, in time linear in its size.
///
/// This is the only way a body is read before it is stored, so what the
/// checks see is what SQLite stores and what every client reads back. It
/// refuses what readers disagree on: a name twice in one object (first or
/// last wins, depending on the reader), half a surrogate pair, a top-level
/// name written with an escape (SQLite's JSON paths compare names as
/// written), JSON5's extensions such as trailing commas, and nesting deeper
/// than `maxDepth`, which bounds the work of every later reader too. It also
/// refuses what one backend cannot store as given, so both answer alike:
/// U+0000 in a string, and a number no double holds (`fitsDouble`). A number
/// is not converted to be stored: its text is kept as sent (SQLite), or as
/// PostgreSQL's `numeric` spells the same value.
struct StrictJSONReader {
    /// Deepest nesting of arrays and objects accepted, the body's own object included.
    static let maxDepth = 64

    /// A body's top-level value and, when it is an object, its members by name.
    struct Document: Sendable, Equatable {
        let value: JSONShape
        let members: [String: JSONShape]
    }

    private var tokens: JSONTokenizer
    private let maxMembers: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, maxMembers: Int) {
        tokens = JSONTokenizer(bytes: bytes, validatedUTF8: true)
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
                var members: [String: JSONShape] = [:]
                reader.tokens.skipWhitespace()
                let value = try reader.value(depth: 0, members: &members)
                reader.tokens.skipWhitespace()
                guard reader.tokens.isAtEnd else { throw reader.tokens.syntax("the end of the body") }
                return Document(value: value, members: members)
            }
        }
        return try result.get()
    }

    /// One value; for the top-level object (`depth` 0), its members go to `members`.
    private mutating func value(depth: Int, members: inout [String: JSONShape]) throws(JSONReadError) -> JSONShape {
        switch tokens.peek() ?? 0 {
        case UInt8(ascii: "{"):
            try object(depth: depth + 1, members: &members)
            return .object
        case UInt8(ascii: "["):
            try array(depth: depth + 1)
            return .array
        case UInt8(ascii: "\""):
            let offset = tokens.position
            let text = try tokens.string().text
            if text.utf8.contains(0) { throw .nulInText(offset: offset) }
            return .string(text)
        case UInt8(ascii: "t"):
            try tokens.literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try tokens.literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try tokens.literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let offset = tokens.position
            let number = try tokens.number()
            if let integer = number.integer { return .integer(integer) }
            guard Self.fitsDouble(number.text) else { throw .numberBeyondDouble(offset: offset) }
            return .number
        default:
            throw tokens.syntax("a value")
        }
    }

    private mutating func object(depth: Int, members: inout [String: JSONShape]) throws(JSONReadError) {
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        tokens.advance()
        tokens.skipWhitespace()
        if tokens.peek() == UInt8(ascii: "}") {
            tokens.advance()
            return
        }
        var names = Set<String>()
        var nested: [String: JSONShape] = [:]
        while true {
            guard tokens.peek() == UInt8(ascii: "\"") else { throw tokens.syntax("a member name in double quotes") }
            let nameOffset = tokens.position
            let name = try tokens.string()
            if depth == 1, name.escaped { throw .escapedName(offset: nameOffset) }
            if name.text.utf8.contains(0) { throw .nulInText(offset: nameOffset) }
            guard names.insert(name.text).inserted else { throw .duplicateName(name.text) }
            tokens.skipWhitespace()
            try tokens.expect(UInt8(ascii: ":"), "':'")
            tokens.skipWhitespace()
            let member = try value(depth: depth, members: &nested)
            if depth == 1 {
                members[name.text] = member
                guard members.count <= maxMembers else { throw .tooManyMembers(limit: maxMembers) }
            }
            tokens.skipWhitespace()
            if tokens.peek() == UInt8(ascii: ",") {
                tokens.advance()
                tokens.skipWhitespace()
                continue
            }
            try tokens.expect(UInt8(ascii: "}"), "',' or '}'")
            return
        }
    }

    /// Whether a double holds the number `text` spells (the grammar already
    /// checked): at most 17 significant digits (zeros before the first and
    /// after the last other digit do not count), finite, and not rounding to
    /// 0 unless it is 0. PostgreSQL's `numeric` stores every such number, so
    /// both backends take the same numbers.
    static func fitsDouble(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var significant = 0
        var zerosAfter = 0
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte == UInt8(ascii: "0") {
                if significant > 0 { zerosAfter += 1 }
            } else if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
                significant += zerosAfter + 1
                zerosAfter = 0
            }
        }
        guard significant <= 17, let value = Double(String(decoding: text, as: UTF8.self)) else { return false }
        return value.isFinite && (value != 0 || significant == 0)
    }

    private mutating func array(depth: Int) throws(JSONReadError) {
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        tokens.advance()
        tokens.skipWhitespace()
        if tokens.peek() == UInt8(ascii: "]") {
            tokens.advance()
            return
        }
        var ignored: [String: JSONShape] = [:]
        while true {
            _ = try value(depth: depth, members: &ignored)
            tokens.skipWhitespace()
            if tokens.peek() == UInt8(ascii: ",") {
                tokens.advance()
                tokens.skipWhitespace()
                continue
            }
            try tokens.expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }
}
