import Foundation

/// Reads a list body (`[{...}, ...]`) in one pass over its UTF-8 bytes,
/// keeping only the fields sync uses: a first sync reads 100,000 items, and a
/// `Decoder` builds a container and looks each field up by name per item.
///
/// It reads the common case only and gives up (nil) on anything else: a body
/// that is not a well-formed array of objects, a field sync reads given twice
/// or holding a number that is not a plain 64-bit integer, a key that is not
/// plain ASCII, a `\u` escape of a surrogate, nesting deeper than 64. The
/// caller then reads the body with `JSONDecoder`, whose reading this one
/// matches wherever it answers (a property test pins that). Everything it
/// skips is checked as strictly as `JSONDecoder` checks it, so a body the
/// decoder refuses is never accepted here.
struct RemoteListScanner {
    /// The fields of one item sync reads, as `RemoteTodo.init(fields:)` takes them.
    private struct Fields {
        var id: JSONValue?
        var title: JSONValue?
        var completed: JSONValue?
        var marker: JSONValue?
        var updatedAt: JSONValue?
        var version: JSONValue?

        var todo: RemoteTodo? {
            RemoteTodo(id: id, title: title, completed: completed, marker: marker, updatedAt: updatedAt, version: version)
        }
    }

    private struct GiveUp: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let names: (id: [UInt8], title: [UInt8], completed: [UInt8], marker: [UInt8], updatedAt: [UInt8], version: [UInt8])

    /// Each element read: the item, or nil if it has no usable id. Nil if the body is not read here.
    static func items(in body: [UInt8], names: FieldNames) -> [RemoteTodo?]? {
        body.withUnsafeBufferPointer { buffer in
            var scanner = RemoteListScanner(bytes: buffer, names: names)
            return try? scanner.list()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, names: FieldNames) {
        self.bytes = bytes
        self.names = (Array("id".utf8), Array(names.title.utf8), Array(names.completed.utf8),
                      Array(names.marker.utf8), Array("updatedAt".utf8), Array("version".utf8))
    }

    private mutating func list() throws(GiveUp) -> [RemoteTodo?] {
        var items: [RemoteTodo?] = []
        // Items run to about 150 bytes: reserve roughly, to grow the array once or twice.
        items.reserveCapacity(bytes.count / 128)
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                items.append(try item())
                skipWhitespace()
                let separator = try next()
                if separator == UInt8(ascii: "]") { break }
                guard separator == UInt8(ascii: ",") else { throw GiveUp() }
                skipWhitespace()
            }
        }
        skipWhitespace()
        guard position == bytes.count else { throw GiveUp() }
        return items
    }

    /// One element, which must be an object (anything else is left to the decoder).
    private mutating func item() throws(GiveUp) -> RemoteTodo? {
        try expect(UInt8(ascii: "{"))
        var fields = Fields()
        var seen: UInt8 = 0
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return fields.todo
        }
        while true {
            let key = try key()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let roles = role(of: key)
            if roles == 0 {
                try skipValue(depth: 0)
            } else {
                guard seen & roles == 0 else { throw GiveUp() }
                seen |= roles
                let value = try fieldValue()
                if roles & 1 != 0 { fields.id = value }
                if roles & 2 != 0 { fields.title = value }
                if roles & 4 != 0 { fields.completed = value }
                if roles & 8 != 0 { fields.marker = value }
                if roles & 16 != 0 { fields.updatedAt = value }
                if roles & 32 != 0 { fields.version = value }
            }
            skipWhitespace()
            let separator = try next()
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
            skipWhitespace()
        }
        return fields.todo
    }

    /// Which fields (a bit each) a key names: several if names coincide.
    private func role(of key: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var roles: UInt8 = 0
        if key.elementsEqual(names.id) { roles |= 1 }
        if key.elementsEqual(names.title) { roles |= 2 }
        if key.elementsEqual(names.completed) { roles |= 4 }
        if key.elementsEqual(names.marker) { roles |= 8 }
        if key.elementsEqual(names.updatedAt) { roles |= 16 }
        if key.elementsEqual(names.version) { roles |= 32 }
        return roles
    }

    /// A key: printable ASCII without escapes (others may compare equal to a
    /// name only after Unicode normalization, as `String` compares).
    private mutating func key() throws(GiveUp) -> UnsafeBufferPointer<UInt8> {
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

    /// A field sync reads, typed as `JSONDecoder` would type it: nil for
    /// null, an array or an object (no field of the wanted type).
    private mutating func fieldValue() throws(GiveUp) -> JSONValue? {
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
    private mutating func skipValue(depth: Int) throws(GiveUp) {
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

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func next() throws(GiveUp) -> UInt8 {
        guard position < bytes.count else { throw GiveUp() }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard try next() == byte else { throw GiveUp() }
    }
}
