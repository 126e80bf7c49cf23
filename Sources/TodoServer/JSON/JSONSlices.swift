/// Finds the parts of a JSON text that `StrictJSONReader` has already
/// accepted: the byte ranges of an object's members and of an array's
/// elements, so that a part can be read (and stored) from its own text.
///
/// It checks nothing itself: on text the reader refused it may answer
/// anything, so it is only ever given text the reader accepted.
enum JSONSlices {
    /// An object's members: each name as written between its quotes, and its value's bytes.
    static func members(of bytes: [UInt8], in range: Range<Int>) -> [(name: [UInt8], value: Range<Int>)] {
        var members: [(name: [UInt8], value: Range<Int>)] = []
        var position = skipWhitespace(bytes, from: range.lowerBound)
        guard position < range.upperBound, bytes[position] == UInt8(ascii: "{") else { return [] }
        position += 1
        while true {
            position = skipWhitespace(bytes, from: position)
            guard position < range.upperBound, bytes[position] == UInt8(ascii: "\"") else { return members }
            let nameEnd = endOfValue(bytes, from: position)
            let name = Array(bytes[(position + 1)..<(nameEnd - 1)])
            position = skipWhitespace(bytes, from: nameEnd) + 1 // the colon
            let start = skipWhitespace(bytes, from: position)
            let end = endOfValue(bytes, from: start)
            members.append((name, start..<end))
            position = skipWhitespace(bytes, from: end)
            guard position < range.upperBound, bytes[position] == UInt8(ascii: ",") else { return members }
            position += 1
        }
    }

    /// An array's elements, each as its value's bytes.
    static func elements(of bytes: [UInt8], in range: Range<Int>) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var position = skipWhitespace(bytes, from: range.lowerBound)
        guard position < range.upperBound, bytes[position] == UInt8(ascii: "[") else { return [] }
        position = skipWhitespace(bytes, from: position + 1)
        guard position < range.upperBound, bytes[position] != UInt8(ascii: "]") else { return [] }
        while true {
            let end = endOfValue(bytes, from: position)
            elements.append(position..<end)
            position = skipWhitespace(bytes, from: end)
            guard position < range.upperBound, bytes[position] == UInt8(ascii: ",") else { return elements }
            position = skipWhitespace(bytes, from: position + 1)
        }
    }

    /// Where the value starting at `start` ends (one past its last byte).
    static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start
        var depth = 0
        var inString = false
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return position }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return position }
                if depth < 0 { return position - 1 }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return position - 1 }
            default:
                break
            }
        }
        return position
    }

    static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        return position
    }
}
