import Foundation
import TodoCore

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
    private typealias GiveUp = JSONByteReader.GiveUp

    private var reader: JSONByteReader
    /// The names of the fields read, in the order of their bits in a role.
    private let names: [[UInt8]]

    /// Each element read: the item, or nil if it has no usable id. Nil if the body is not read here.
    static func items(in body: [UInt8], names: FieldNames) -> [RemoteTodo?]? {
        body.withUnsafeBufferPointer { buffer in
            var scanner = RemoteListScanner(bytes: buffer, names: names)
            return try? scanner.list()
        }
    }

    /// The results of todo-server's batch write, `{"results": [{"status":
    /// 201, "item": {...}}, {"status": 412, "error": "..."}]}`: each status, and
    /// its item read as a list's items are. Nil if the body is not read here.
    static func batchResults(in body: [UInt8], names: FieldNames) -> [(status: Int, item: RemoteTodo?)]? {
        body.withUnsafeBufferPointer { buffer in
            var scanner = RemoteListScanner(bytes: buffer, names: names)
            return try? scanner.results()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, names: FieldNames) {
        reader = JSONByteReader(bytes: bytes)
        self.names = RemoteFields.keys(names).map { Array($0.utf8) }
        precondition(self.names.count <= UInt64.bitWidth, "a bit for each key read")
    }

    private mutating func list() throws(GiveUp) -> [RemoteTodo?] {
        var items: [RemoteTodo?] = []
        // Items run to about 150 bytes: reserve roughly, to grow the array once or twice.
        items.reserveCapacity(reader.bytes.count / 128)
        reader.skipWhitespace()
        try forEachElement { scanner throws(GiveUp) in items.append(try scanner.item()) }
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw GiveUp() }
        return items
    }

    /// Reads a JSON array from its `[` to past its `]`, calling `element`
    /// with the reader at each element's start.
    @inline(__always)
    private mutating func forEachElement(_ element: (inout RemoteListScanner) throws(GiveUp) -> Void) throws(GiveUp) {
        try reader.expect(UInt8(ascii: "["))
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "]") {
            reader.advance()
            return
        }
        while true {
            try element(&self)
            reader.skipWhitespace()
            let separator = try reader.next()
            if separator == UInt8(ascii: "]") { return }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
            reader.skipWhitespace()
        }
    }

    private mutating func results() throws(GiveUp) -> [(status: Int, item: RemoteTodo?)] {
        var results: [(status: Int, item: RemoteTodo?)] = []
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        guard try reader.key().elementsEqual("results".utf8) else { throw GiveUp() }
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: ":"))
        reader.skipWhitespace()
        try forEachElement { scanner throws(GiveUp) in results.append(try scanner.result()) }
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "}"))
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw GiveUp() }
        return results
    }

    /// One result: its status first, then its item or error, and nothing else.
    private mutating func result() throws(GiveUp) -> (status: Int, item: RemoteTodo?) {
        try reader.expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        guard try reader.key().elementsEqual("status".utf8) else { throw GiveUp() }
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: ":"))
        reader.skipWhitespace()
        guard case let .integer(status)? = try reader.fieldValue() else { throw GiveUp() }
        var item: RemoteTodo?
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: ",") {
            reader.advance()
            reader.skipWhitespace()
            let key = try reader.key()
            let isItem = key.elementsEqual("item".utf8)
            guard isItem || key.elementsEqual("error".utf8) else { throw GiveUp() }
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: ":"))
            reader.skipWhitespace()
            if isItem { item = try self.item() } else { try reader.skipValue(depth: 0) }
            reader.skipWhitespace()
        }
        try reader.expect(UInt8(ascii: "}"))
        return (Int(status), item)
    }

    /// One element, which must be an object (anything else is left to the decoder).
    private mutating func item() throws(GiveUp) -> RemoteTodo? {
        try reader.expect(UInt8(ascii: "{"))
        var fields = RemoteFields()
        var seen: UInt64 = 0
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "}") {
            reader.advance()
            return RemoteTodo(raw: fields)
        }
        while true {
            let key = try reader.key()
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: ":"))
            reader.skipWhitespace()
            let roles = role(of: key)
            if roles == 0 {
                try reader.skipValue(depth: 0)
            } else {
                guard seen & roles == 0 else { throw GiveUp() }
                seen |= roles
                // Tags and blockers may be an array: of strings only, else the decoder reads it.
                let value = roles & Self.arrayRoles != 0 && reader.peek() == UInt8(ascii: "[")
                    ? try reader.stringArray()
                    : try reader.fieldValue()
                var remaining = roles
                while remaining != 0 {
                    fields.values[remaining.trailingZeroBitCount] = value
                    remaining &= remaining - 1
                }
            }
            reader.skipWhitespace()
            let separator = try reader.next()
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
            reader.skipWhitespace()
        }
        return RemoteTodo(raw: fields)
    }

    /// The bits of the fields that may hold an array of strings: tags and blockers.
    private static let arrayRoles = TodoField.allCases.filter(\.mergesAsSet)
        .reduce(UInt64(0)) { $0 | 1 << RemoteFields.place(of: $1) }

    /// Which fields (a bit each) a key names: several if names coincide.
    private func role(of key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var roles: UInt64 = 0
        // The length first: most names differ in it, and the comparison stops there.
        for (bit, name) in names.enumerated() where name.count == key.count {
            // Compared as memory: element by element took a tenth of the reading.
            let same = name.withUnsafeBufferPointer { name in
                guard let first = name.baseAddress, let second = key.baseAddress else { return true } // both empty
                return memcmp(first, second, key.count) == 0
            }
            if same { roles |= 1 << bit }
        }
        return roles
    }
}
