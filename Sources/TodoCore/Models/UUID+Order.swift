import Foundation

/// Two big-endian halves of a UUID's bytes: compared as a tuple, they order
/// UUIDs as their text forms order.
public typealias UUIDOrderKey = (UInt64, UInt64)

extension UUID {
    /// Orders UUIDs as their lowercase text forms order: hex digits and
    /// dashes at fixed places sort as the bytes they spell.
    public var orderKey: UUIDOrderKey {
        withUnsafeBytes(of: uuid) { bytes in
            (UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
