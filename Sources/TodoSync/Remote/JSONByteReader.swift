import JSONTokens

/// Reads the values sync keeps out of UTF-8 bytes, on the package's one
/// tokenizer, as strictly as `JSONDecoder` reads them, and gives up on
/// anything it does not read: the value-level half of `RemoteListScanner`,
/// which knows the shape of a list.
struct JSONByteReader {
    struct GiveUp: Error {}

    private var tokens: JSONTokenizer

    init(bytes: UnsafeBufferPointer<UInt8>) {
        tokens = JSONTokenizer(bytes: bytes, validatedUTF8: false)
    }

    var bytes: UnsafeBufferPointer<UInt8> { tokens.bytes }
    var isAtEnd: Bool { tokens.isAtEnd }
    func peek() -> UInt8? { tokens.peek() }
    /// Steps over the byte `peek()` returned.
    mutating func advance() { tokens.advance() }
    mutating func skipWhitespace() { tokens.skipWhitespace() }

    mutating func next() throws(GiveUp) -> UInt8 {
        guard let byte = tokens.peek() else { throw GiveUp() }
        tokens.advance()
        return byte
    }

    mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard try next() == byte else { throw GiveUp() }
    }

    /// A key: printable ASCII without escapes (others may compare equal to a
    /// name only after Unicode normalization, as `String` compares).
    mutating func key() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = tokens.position
        while let byte = tokens.peek() {
            tokens.advance()
            if byte == UInt8(ascii: "\"") {
                return UnsafeBufferPointer(rebasing: tokens.bytes[start..<(tokens.position - 1)])
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw GiveUp() }
        }
        throw GiveUp()
    }

    /// A scalar value, typed as `JSONDecoder` would type it: a string, a
    /// bool or an integer; nil for null, an array or an object (checked and
    /// skipped: no value of a wanted type).
    mutating func fieldValue() throws(GiveUp) -> JSONValue? {
        do {
            switch tokens.peek() {
            case UInt8(ascii: "\""):
                return .string(try tokens.string().text)
            case UInt8(ascii: "t"):
                try tokens.literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try tokens.literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try tokens.literal("null")
                return nil
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                try skipValue(depth: 0)
                return nil
            default:
                // Sync's numbers are plain 64-bit integers; any other is the decoder's to read.
                guard let integer = try tokens.number().integer else { throw GiveUp() }
                return .integer(integer)
            }
        } catch {
            throw GiveUp()
        }
    }

    /// The strings of an array (`["home", "bills"]`); any other element is
    /// checked and left out, as reading tags leaves it out.
    mutating func stringArray() throws(GiveUp) -> JSONValue {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        var elements: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            advance()
            return .array(elements)
        }
        while true {
            if peek() == UInt8(ascii: "\"") {
                do { elements.append(.string(try tokens.string().text)) } catch { throw GiveUp() }
            } else {
                try skipValue(depth: 1)
            }
            skipWhitespace()
            let separator = try next()
            if separator == UInt8(ascii: "]") { return .array(elements) }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
            skipWhitespace()
        }
    }

    /// Checks a value sync does not read, as strictly as the decoder would.
    mutating func skipValue(depth: Int) throws(GiveUp) {
        guard depth < 64 else { throw GiveUp() }
        switch peek() {
        case UInt8(ascii: "["):
            advance()
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { advance(); return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "]") { return }
                guard separator == UInt8(ascii: ",") else { throw GiveUp() }
                skipWhitespace()
            }
        case UInt8(ascii: "{"):
            advance()
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { advance(); return }
            while true {
                _ = try key()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "}") { return }
                guard separator == UInt8(ascii: ",") else { throw GiveUp() }
                skipWhitespace()
            }
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
            do { _ = try tokens.number() } catch { throw GiveUp() }
        default:
            do {
                switch peek() {
                case UInt8(ascii: "\""): _ = try tokens.string()
                case UInt8(ascii: "t"): try tokens.literal("true")
                case UInt8(ascii: "f"): try tokens.literal("false")
                case UInt8(ascii: "n"): try tokens.literal("null")
                default: throw tokens.syntax("a value")
                }
            } catch {
                throw GiveUp()
            }
        }
    }
}
