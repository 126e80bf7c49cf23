import Foundation

/// What an import saw of a todo, as much as importing it again needs: when
/// the file's todo last changed, and a digest of each field's value (64-bit
/// FNV-1a): a base is a sixth of the todo's size, where whole copies took
/// an import of 100,000 todos a quarter longer.
public struct ImportBase: Sendable, Hashable {
    public let updatedAt: Date
    /// One a field, in `TodoField.allCases`' order; a base recorded before
    /// a field existed has none for it.
    private let digests: [UInt64]

    /// The base of a todo as the file holds it.
    public init(_ item: TodoItem) {
        updatedAt = item.updatedAt
        digests = TodoField.allCases.map { Self.digest($0, of: item) }
    }

    /// A base as stored: `data` holds the digests, eight bytes each, little-endian.
    public init(updatedAt: Date, data: Data) {
        self.updatedAt = updatedAt
        digests = stride(from: 0, to: data.count - data.count % 8, by: 8).map { start in
            (0..<8).reduce(UInt64(0)) { value, index in value | UInt64(data[data.startIndex + start + index]) << (8 * UInt64(index)) }
        }
    }

    /// The digests as stored.
    public var data: Data {
        var data = Data(count: digests.count * 8)
        data.withUnsafeMutableBytes { bytes in
            for (index, digest) in digests.enumerated() { bytes.storeBytes(of: digest.littleEndian, toByteOffset: index * 8, as: UInt64.self) }
        }
        return data
    }

    /// Whether `item` holds for `field` what the import saw; nil if this
    /// base has no digest for it.
    public func holdsSame(_ field: TodoField, as item: TodoItem) -> Bool? {
        guard let index = TodoField.allCases.firstIndex(of: field), index < digests.count else { return nil }
        return digests[index] == Self.digest(field, of: item)
    }

    /// A field's value, digested from its parts as they are stored: the
    /// bytes each part feeds must never change, or every stored base would
    /// read as changed. (Digesting the value's text, dates formatted and
    /// all, took an import of 100,000 todos 1.15x as long.)
    static func digest(_ field: TodoField, of item: TodoItem) -> UInt64 {
        var digest = FNV()
        func feed(_ due: TodoDue?) {
            switch due {
            case nil: digest.feed(0)
            case let .day(day): digest.feed(1, Int64(day.daysSince1970))
            case let .moment(date): digest.feed(2, date.millisecondsSince1970)
            }
        }
        func feed(_ text: String?) {
            guard let text else { return digest.feed(0) }
            digest.feed(1)
            for byte in text.utf8 { digest.feed(byte) }
        }
        func feed(_ id: UUID) { withUnsafeBytes(of: id.uuid) { for byte in $0 { digest.feed(byte) } } }
        switch (field.kind, item[value: field]) {
        case (.flag, .flag(let flag)): digest.feed(flag ? 1 : 0)
        case (.date, _): feed(item.date(field))
        case (.todo, .text(let id)): UUID(parsing: id).map(feed) ?? digest.feed(0)
        case (.todo, _): digest.feed(0)
        case (_, .list(let list)) where field.kind == .todos: for id in list.compactMap(UUID.init(parsing:)) { feed(id) }
        case (_, .list(let list)): for element in list { feed(element) }
        case (_, .text(let text)): feed(text)
        case (_, _): feed(nil as String?)
        }
        return digest.value
    }

    /// 64-bit FNV-1a.
    private struct FNV {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func feed(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

        mutating func feed(_ tag: UInt8, _ number: Int64) {
            feed(tag)
            withUnsafeBytes(of: number.littleEndian) { for byte in $0 { feed(byte) } }
        }
    }
}
