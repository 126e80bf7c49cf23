/// Turns the bytes read from a terminal in raw mode into keys.
///
/// Bytes arrive in chunks that may split a UTF-8 character or an escape
/// sequence; what is incomplete waits for the next chunk. A lone Escape is
/// ambiguous (it also starts every sequence): the caller waits a moment and
/// calls `flush()` if nothing followed.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes wait for more: call `flush()` if none come soon.
    public var hasPendingInput: Bool { !pending.isEmpty }

    /// The keys `bytes` complete.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// What waits, taken as typed: a lone Escape is the Escape key.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        guard let first = pending.first else { return [] }
        if first == 0x1B { return [.escape] + KeyDecoder().decodingRest(pending.dropFirst()) }
        return []
    }

    private func decodingRest(_ bytes: ArraySlice<UInt8>) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes)
    }

    /// The key at `index` and how many bytes it takes (a nil key for bytes
    /// that mean nothing here), or nil if the bytes there are incomplete.
    static func key(at index: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            return escapeSequence(at: index, in: bytes)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x09:
            return (.tab, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F:
            return (nil, 1)
        default:
            return utf8Character(at: index, in: bytes)
        }
    }

    private static func utf8Character(at index: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        let byte = bytes[index]
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first, scalar != "\u{FFFD}" || length == 3 else {
            return (nil, length)
        }
        return (.character(Character(scalar)), length)
    }

    /// CSI (`ESC [ … final`) and SS3 (`ESC O x`) sequences for the keys a
    /// list needs; any other sequence is skipped whole.
    private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let introducer = bytes[index + 1]
        if introducer == UInt8(ascii: "O") {
            guard index + 2 < bytes.count else { return nil }
            return (finalKey(bytes[index + 2], parameter: ""), 3)
        }
        guard introducer == UInt8(ascii: "[") else {
            // Escape then another key (Alt+key, or Escape typed fast): Escape alone.
            return (.escape, 1)
        }
        var end = index + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let parameter = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        return (finalKey(bytes[end], parameter: parameter), end - index + 1)
    }

    private static func finalKey(_ final: UInt8, parameter: String) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "Z"): nil // Shift-Tab
        case UInt8(ascii: "~"):
            switch parameter.split(separator: ";").first ?? "" {
            case "1", "7": .home
            case "4", "8": .end
            case "3": .delete
            case "5": .pageUp
            case "6": .pageDown
            default: nil
            }
        default: nil
        }
    }
}
