/// Server-Sent Events read from a byte stream, as the WHATWG HTML standard
/// says: lines ending in LF, CRLF or CR; `event`, `data` and `id` fields; a
/// blank line ends an event; a line starting with `:` is a comment. Pure:
/// bytes in, events out, whatever the chunks' boundaries.
struct ServerSentEvents {
    struct Event: Sendable, Equatable {
        var type = "message"
        var data = ""
        /// The event's `id`, if it had one.
        var id: String?
    }

    /// The longest line kept: an endless line from a broken server is dropped, not held.
    static let maxLineLength = 64 * 1024

    private var line: [UInt8] = []
    private var lineTooLong = false
    private var afterCR = false
    private var type = ""
    private var data: [String] = []
    private var id: String?

    /// The events `bytes` complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                if line.count < Self.maxLineLength { line.append(byte) } else { lineTooLong = true }
            }
        }
        return events
    }

    private mutating func endLine() -> Event? {
        defer {
            line.removeAll(keepingCapacity: true)
            lineTooLong = false
        }
        if lineTooLong { return nil }
        if line.isEmpty {
            defer {
                type = ""
                data = []
                id = nil
            }
            guard !data.isEmpty || !type.isEmpty else { return nil }
            return Event(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: id)
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "event": type = String(value)
        case "data": data.append(String(value))
        case "id" where !value.contains("\0"): id = String(value)
        default: break
        }
        return nil
    }
}
