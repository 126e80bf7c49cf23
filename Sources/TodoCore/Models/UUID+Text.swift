import Foundation

extension UUID {
    /// The lowercase text form, `3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b`: what
    /// todos store and show. Written by hand because `uuidString` formats with
    /// `snprintf`, and an import or a sync forms several per todo.
    public var lowercasedString: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    text[out] = digits.utf8Start[Int(byte >> 4)]
                    text[out + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    out += 2
                }
                return out
            }
        }
    }

    /// A UUID read from its text form in either case, as `UUID(uuidString:)`
    /// reads it: by hand for the 36-character form, which is what every todo
    /// has, and by Foundation for anything else.
    public init?(parsing text: String) {
        var text = text
        let bytes: uuid_t? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Self.hexValue(utf8[position]), let low = Self.hexValue(utf8[position + 1]) else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return parsed ? value : nil
        }
        if let bytes {
            self.init(uuid: bytes)
        } else if let uuid = UUID(uuidString: text) {
            self = uuid
        } else {
            return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
