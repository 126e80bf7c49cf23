import Foundation

extension UUID {
    /// A UUID every replica derives alike from the same text: a server item
    /// with no UUID of its own, or the next occurrence of a repeating todo,
    /// gets the same id everywhere.
    public init(derivedFrom text: String) {
        func fnv(_ seed: UInt64) -> UInt64 {
            text.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for (index, half) in [fnv(0xcbf2_9ce4_8422_2325), fnv(0x84222325_cbf29ce4)].enumerated() {
            for byte in 0..<8 { bytes[index * 8 + byte] = UInt8(truncatingIfNeeded: half >> (8 * byte)) }
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x80 // version 8: custom
        bytes[8] = (bytes[8] & 0x3f) | 0x80 // RFC 4122 variant
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
