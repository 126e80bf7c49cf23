/// The tokens of RFC 8259 JSON, read from UTF-8 bytes in place: the one
/// tokenizer of this package. Two readers stand on it and add their own
/// grammar: todo-server's `StrictJSONReader` (every request body it stores)
/// and sync's `JSONByteReader` (the lists a first sync reads).
///
/// It checks each token as strictly as the RFC says (no leading zeros, no
/// control characters in strings, no lone surrogates) and reports the byte
/// offset of what was wrong. Structure (objects, arrays, depth, duplicate
/// names) is the readers' business.
public struct JSONTokenizer {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var position = 0
    /// Whether the caller has already checked that `bytes` are UTF-8; when
    /// not, a string holding bytes of 0x80 or more is checked as it is read.
    @usableFromInline let validatedUTF8: Bool

    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>, validatedUTF8: Bool) {
        self.bytes = bytes
        self.validatedUTF8 = validatedUTF8
    }

    @inlinable public var isAtEnd: Bool { position == bytes.count }

    @inlinable
    public func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    @inlinable
    public func peek(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Steps over the byte `peek()` returned.
    @inlinable
    public mutating func advance() {
        position += 1
    }

    @inlinable
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Steps over `byte`, which must come next.
    @inlinable
    public mutating func expect(_ byte: UInt8, _ description: @autoclosure () -> String) throws(JSONReadError) {
        guard peek() == byte else { throw syntax(description()) }
        position += 1
    }

    /// `true`, `false` or `null`, which must come next.
    @inlinable
    public mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw syntax("a value") }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            throw syntax("a value")
        }
        position += count
    }

    // MARK: - Strings

    /// The string starting at the opening quote under `position`: its
    /// decoded text, and whether it was written with any escape.
    @inlinable
    public mutating func string() throws(JSONReadError) -> (text: String, escaped: Bool) {
        position += 1
        let start = position
        var ascii = true
        // Most strings have no escape: their bytes are their text.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if ascii || validatedUTF8 { return (String(decoding: raw, as: UTF8.self), false) }
                guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8 }
                return (text, false)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw syntax("a control character to be escaped") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        guard position < bytes.count else { throw syntax("a closing '\"'") }
        return (try escapedString(from: start), true)
    }

    /// The rest of a string holding escapes; `start` is just after its opening quote.
    @usableFromInline
    mutating func escapedString(from start: Int) throws(JSONReadError) -> String {
        var text = Array(bytes[start..<position])
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                if validatedUTF8 { return String(decoding: text, as: UTF8.self) }
                guard let decoded = String(validating: text, as: UTF8.self) else { throw .invalidUTF8 }
                return decoded
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
    @usableFromInline
    mutating func escape(into text: inout [UInt8]) throws(JSONReadError) {
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

    @usableFromInline
    mutating func hex4() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw syntax("four hexadecimal digits") }
            let digit: UInt32 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntax("four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Numbers

    /// The number under `position`, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`:
    /// its text, and its value when it is an integer (no fraction, no
    /// exponent) that fits in 64 bits. The text is never converted otherwise,
    /// so a reader can keep it exactly (`1e999` included).
    @inlinable
    public mutating func number() throws(JSONReadError) -> (text: UnsafeBufferPointer<UInt8>, integer: Int64?) {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        var magnitude: UInt64 = 0
        var fits = true
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else {
            let first = position
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                if overflow1 || overflow2 { fits = false }
                magnitude = sum
                position += 1
            }
            guard position > first else { throw syntax("a digit") }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw syntax("a digit after '.'") }
            isInteger = false
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw syntax("a digit in the exponent") }
            isInteger = false
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard isInteger, fits else { return (text, nil) }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return (text, nil) }
            return (text, magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return (text, nil) }
        return (text, Int64(magnitude))
    }

    @inlinable
    mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            position += 1
        }
        return position - start
    }

    /// A syntax error at `position`: what was expected there.
    @inlinable
    public func syntax(_ expected: String) -> JSONReadError {
        .syntax(expected: expected, offset: position)
    }
}
