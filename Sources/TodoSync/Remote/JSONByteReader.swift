import Foundation

/// Reads JSON out of UTF-8 bytes a token at a time, as strictly as
/// `JSONDecoder` reads it, and gives up on anything it does not read: the
/// byte-level half of `RemoteListScanner`, which knows the shape of a list.
struct JSONByteReader {
    struct GiveUp: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    /// Steps over the byte `peek()` returned.
    mutating func advance() {
        position += 1
    }

    /// A key: printable ASCII without escapes (others may compare equal to a
    /// name only after Unicode normalization, as `String` compares).
    mutating func key() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw GiveUp() }
            position += 1
        }
        throw GiveUp()
    }

    /// A scalar value, typed as `JSONDecoder` would type it: a string, a
    /// bool or an integer; nil for null, an array or an object (checked and
    /// skipped: no value of a wanted type).
    mutating func fieldValue() throws(GiveUp) -> JSONValue? {
        switch peek() {
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            try skipValue(depth: 0)
            return nil
        default:
            return .integer(try integer())
        }
    }

    /// The strings of an array (`["home", "bills"]`); any other element is
    /// checked and left out, as reading tags leaves it out.
    mutating func stringArray() throws(GiveUp) -> JSONValue {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        var elements: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            if peek() == UInt8(ascii: "\"") {
                elements.append(.string(try string()))
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

    /// A plain integer (`-?(0|[1-9][0-9]*)`) that fits in 64 bits.
    private mutating func integer() throws(GiveUp) -> Int64 {
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var magnitude: UInt64 = 0
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw GiveUp() }
            magnitude = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw GiveUp() }
        if let byte = peek(), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            throw GiveUp()
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw GiveUp() }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw GiveUp() }
        return Int64(magnitude)
    }

    /// A string value, escapes decoded; its UTF-8 must be valid.
    private mutating func string() throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if ascii { return String(decoding: raw, as: UTF8.self) }
                guard let text = String(validating: raw, as: UTF8.self) else { throw GiveUp() }
                return text
            }
            if byte == UInt8(ascii: "\\") {
                position = start
                return try escapedString()
            }
            guard byte >= 0x20 else { throw GiveUp() }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        throw GiveUp()
    }

    /// The rest of a string holding escapes, from just after its opening quote.
    private mutating func escapedString() throws(GiveUp) -> String {
        var utf8: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw GiveUp() }
                return text
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                utf8.append(contentsOf: UTF8.encode(scalar)!)
            case ..<0x20:
                throw GiveUp()
            default:
                utf8.append(byte)
            }
        }
        throw GiveUp()
    }

    /// The scalar an escape stands for, from just after its backslash.
    private mutating func escape() throws(GiveUp) -> Unicode.Scalar {
        switch try next() {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = try next()
                let digit: UInt8 = switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: throw GiveUp()
                }
                value = value * 16 + UInt32(digit)
            }
            // Surrogates (pairs or lone) are left to the decoder.
            guard let scalar = Unicode.Scalar(value) else { throw GiveUp() }
            return scalar
        default:
            throw GiveUp()
        }
    }

    /// Checks a value sync does not read, as strictly as the decoder would.
    mutating func skipValue(depth: Int) throws(GiveUp) {
        guard depth < 64 else { throw GiveUp() }
        switch peek() {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        case UInt8(ascii: "["):
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { position += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "]") { return }
                guard separator == UInt8(ascii: ",") else { throw GiveUp() }
                skipWhitespace()
            }
        case UInt8(ascii: "{"):
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { position += 1; return }
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
        default:
            try skipNumber()
        }
    }

    /// Any JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func skipNumber() throws(GiveUp) {
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw GiveUp() }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), isDigit(byte) else { throw GiveUp() }
            skipDigits()
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let byte = peek(), isDigit(byte) else { throw GiveUp() }
            skipDigits()
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private mutating func literal(_ word: StaticString) throws(GiveUp) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw GiveUp() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            throw GiveUp()
        }
        position += count
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func next() throws(GiveUp) -> UInt8 {
        guard position < bytes.count else { throw GiveUp() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard try next() == byte else { throw GiveUp() }
    }
}
