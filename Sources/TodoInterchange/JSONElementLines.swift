/// The line each element of a top-level JSON array starts on, from 1, so a
/// problem with the 5th todo of a file can be reported as on its line.
///
/// A scan of the bytes that follows strings and nesting and nothing else:
/// the JSON is checked by the real parser.
enum JSONElementLines {
    static func lines(of bytes: some Sequence<UInt8>) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        var expectingElement = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: ",") where depth == 1:
                expectingElement = true
                continue
            default:
                break
            }
            if depth == 1, expectingElement {
                expectingElement = false
                if byte != UInt8(ascii: "]") { lines.append(line) }
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectingElement = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return lines
    }
}
