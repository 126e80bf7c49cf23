/// A component of an iCalendar object (`BEGIN:VTODO` … `END:VTODO`): its
/// properties and subcomponents in the order they were written, so that
/// writing it back keeps every line another app wrote where it wrote it.
public struct ICalendarComponent: Sendable, Equatable {
    public enum Entry: Sendable, Equatable {
        case property(ContentLine)
        case component(ICalendarComponent)
    }

    /// The name after `BEGIN:`, in upper case.
    public var name: String
    public var entries: [Entry]
    /// The `BEGIN` and `END` lines as they came.
    var originalBegin: [UInt8]?
    var originalEnd: [UInt8]?

    public init(name: String, entries: [Entry] = []) {
        self.name = name.uppercased()
        self.entries = entries
    }

    /// The properties, in order.
    public var properties: [ContentLine] {
        entries.compactMap { if case let .property(line) = $0 { line } else { nil } }
    }

    /// The subcomponents, in order.
    public var components: [ICalendarComponent] {
        entries.compactMap { if case let .component(component) = $0 { component } else { nil } }
    }

    /// The first property named `name` (in upper case).
    public func property(_ name: String) -> ContentLine? {
        for entry in entries {
            if case let .property(line) = entry, line.is(name) { return line }
        }
        return nil
    }

    /// Every property named `name` (in upper case).
    public func properties(_ name: String) -> [ContentLine] {
        properties.filter { $0.is(name) }
    }

    /// Puts `line` in place of the properties named as it is: where the first
    /// of them stood (left untouched if it is that line already), or at the
    /// end of the properties. Nil removes them all.
    public mutating func set(_ name: String, to line: ContentLine?) {
        let existing = entries.indices.filter { if case let .property(old) = entries[$0] { old.is(name) } else { false } }
        if let line, existing.count == 1, case let .property(old) = entries[existing[0]],
           old.parameters == line.parameters, old.value == line.value {
            return
        }
        let place = existing.first ?? (entries.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0)
        for index in existing.reversed() { entries.remove(at: index) }
        if let line { entries.insert(.property(line), at: min(place, entries.count)) }
    }

    // MARK: - Reading

    /// The deepest nesting read: VCALENDAR > VTODO > VALARM is 3.
    public static let maxDepth = 16

    /// Reads an iCalendar object: one top-level component (`VCALENDAR`),
    /// lines ending in CRLF or LF, folded lines unfolded before their UTF-8
    /// is decoded, so a character split across a fold reads whole.
    public static func read(_ bytes: [UInt8]) throws(ICalendarError) -> ICalendarComponent {
        var stack: [ICalendarComponent] = []
        var root: ICalendarComponent?
        var lineNumber = 0
        for (unfolded, original, number) in Self.lines(bytes) {
            lineNumber = number
            guard let text = String(validating: unfolded, as: UTF8.self) else { throw .notUTF8(line: number) }
            if text.isEmpty { continue }
            guard let line = ContentLine(unfolded: Substring(text).utf8, original: original) else {
                throw .malformedLine(line: number)
            }
            if line.is("BEGIN") {
                guard root == nil else { throw .afterEnd(line: number) }
                guard stack.count < maxDepth else { throw .tooDeep(limit: maxDepth) }
                var component = ICalendarComponent(name: line.value)
                component.originalBegin = original
                stack.append(component)
            } else if line.is("END") {
                guard var component = stack.popLast(), component.name == line.value.uppercased() else {
                    throw .unbalanced(line: number)
                }
                component.originalEnd = original
                if stack.isEmpty {
                    root = component
                } else {
                    stack[stack.count - 1].entries.append(.component(component))
                }
            } else {
                guard !stack.isEmpty else { throw root == nil ? .notICalendar : .afterEnd(line: number) }
                stack[stack.count - 1].entries.append(.property(line))
            }
        }
        guard stack.isEmpty else { throw .unbalanced(line: lineNumber) }
        guard let root else { throw .notICalendar }
        return root
    }

    /// Each logical line: its bytes unfolded, its bytes as they came (folds
    /// included, each fold's line break as CRLF, its own line break left
    /// out), and the number of its first physical line.
    private static func lines(_ bytes: [UInt8]) -> [(unfolded: [UInt8], original: [UInt8], number: Int)] {
        var result: [(unfolded: [UInt8], original: [UInt8], number: Int)] = []
        var unfolded: [UInt8] = []
        var original: [UInt8] = []
        var segmentStart = 0
        var number = 1
        var physical = 1
        while true {
            var newline = segmentStart
            while newline < bytes.count, bytes[newline] != UInt8(ascii: "\n") { newline += 1 }
            var contentEnd = newline
            if contentEnd > segmentStart, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            unfolded.append(contentsOf: bytes[segmentStart..<contentEnd])
            original.append(contentsOf: bytes[segmentStart..<contentEnd])
            let next = newline + 1
            physical += 1
            // A line break followed by a space or a tab is a fold: the line goes on.
            if next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 {
                original.append(contentsOf: [0x0D, 0x0A, bytes[next]])
                segmentStart = next + 1
                continue
            }
            result.append((unfolded, original, number))
            unfolded = []
            original = []
            guard next < bytes.count else { return result }
            number = physical
            segmentStart = next
        }
    }

    // MARK: - Writing

    /// The component as iCalendar text: each line read and left unchanged as
    /// it came, each other line folded at 75 octets (never inside a
    /// character), every line ending in CRLF.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        Self.writeLine(originalBegin, "BEGIN:" + name, to: &out)
        for entry in entries {
            switch entry {
            case let .property(line): Self.writeLine(line.original, line.unfolded, to: &out)
            case let .component(component): component.write(to: &out)
            }
        }
        Self.writeLine(originalEnd, "END:" + name, to: &out)
    }

    private static func writeLine(_ original: [UInt8]?, _ text: String, to out: inout [UInt8]) {
        if let original {
            out.append(contentsOf: original)
        } else {
            fold(Array(text.utf8), to: &out)
        }
        out.append(contentsOf: [0x0D, 0x0A])
    }

    /// Writes `line` folded: at most 75 octets a line, a continuation starting
    /// with a space, a break never placed before a UTF-8 continuation byte.
    static func fold(_ line: [UInt8], to out: inout [UInt8]) {
        var start = 0
        var limit = 75
        while line.count - start > limit {
            var end = start + limit
            while end > start, line[end] & 0xC0 == 0x80 { end -= 1 }
            out.append(contentsOf: line[start..<end])
            out.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = end
            limit = 74
        }
        out.append(contentsOf: line[start...])
    }
}
