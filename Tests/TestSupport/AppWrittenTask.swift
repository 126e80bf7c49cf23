import Foundation

/// A VTODO as phone and desktop task apps write them, from a seed: UIDs of
/// every shape (lower- and upper-case UUIDs, numbers, `name@host`), times
/// in UTC, in a TZID with its VTIMEZONE, floating and all-day, categories
/// with spaces, a STATUS:COMPLETED with no COMPLETED, an RRULE of ours
/// or one beyond it, alarms and the apps' own properties. Plain text, so the
/// server's and the sync's suites use it alike.
public struct AppWrittenTask: Sendable {
    public let uid: String
    /// The whole object, CRLF line breaks, no line folded.
    public let text: String
    /// What a test may edit, and whether the task has them.
    public let isDone: Bool
    public let dueIsDate: Bool
    public let startIsDate: Bool

    static let words = ["milk", "call", "post office", "home", "Büro", "😀", "a,b", "semi;colon", "back\\slash", "x"]

    public init(_ random: inout SeededRandom) {
        func pick<T>(_ options: [T]) -> T { options[random.next(options.count)] }
        func words(_ count: Int) -> String { (0..<count).map { _ in pick(Self.words) }.joined(separator: " ") }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
                .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
        }
        let number = random.next(1_000_000)
        let uuid = UUID(uuid: (UInt8(number & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number >> 16 & 0xFF), 0x11, 0x22, 0x33, 0x44, 0x55,
                               0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, UInt8(random.next(256)))).uuidString
        uid = pick([uuid.lowercased(), uuid, "\(number)", "\(number)-task@example.org"])
        let day = 20_270_101 + random.next(28)
        let zone = pick(["Z", "berlin", "floating", "date"])
        func time(_ day: Int, _ hour: Int, form: String) -> (params: String, value: String) {
            switch form {
            case "Z": ("", "\(day)T\(String(format: "%02d", hour))0000Z")
            case "berlin": (";TZID=Europe/Berlin", "\(day)T\(String(format: "%02d", hour))0000")
            case "floating": ("", "\(day)T\(String(format: "%02d", hour))0000")
            default: (";VALUE=DATE", "\(day)")
            }
        }
        var lines: [String] = []
        var todo: [String] = ["UID:" + uid, "DTSTAMP:20261101T080000Z", "SUMMARY:" + escape(words(1 + random.next(3)))]
        var order: [[String]] = []
        isDone = random.next(3) == 0
        if isDone {
            order.append(["STATUS:COMPLETED"])
            if random.next(2) == 0 { order.append(["COMPLETED:20261102T090000Z"]) }
            if random.next(2) == 0 { order.append(["PERCENT-COMPLETE:100"]) }
        } else if random.next(2) == 0 {
            order.append([pick(["STATUS:NEEDS-ACTION", "STATUS:IN-PROCESS"])])
            if random.next(2) == 0 { order.append(["PERCENT-COMPLETE:\(random.next(100))"]) }
        }
        let hasDue = random.next(4) > 0
        dueIsDate = hasDue && zone == "date"
        if hasDue {
            let due = time(day + 2, 18, form: zone)
            order.append(["DUE" + due.params + ":" + due.value])
        }
        // DTSTART of the same form, earlier, as RFC 5545 asks beside a DUE.
        let hasStart = random.next(2) == 0
        startIsDate = hasStart && zone == "date"
        if hasStart {
            let start = time(day, 9, form: zone)
            order.append(["DTSTART" + start.params + ":" + start.value])
        }
        if random.next(2) == 0 { order.append(["PRIORITY:\(random.next(10))"]) }
        var categories: [String] = []
        for _ in 0..<random.next(4) {
            let word = pick(["home", "post office", "work", "Einkauf", "two words", " padded ", "urgent-ish"])
            if !categories.contains(word) { categories.append(word) }
        }
        if !categories.isEmpty {
            let cut = random.next(categories.count + 1)
            for part in [categories[..<cut], categories[cut...]] where !part.isEmpty {
                order.append(["CATEGORIES:" + part.map(escape).joined(separator: ",")])
            }
        }
        if random.next(2) == 0 { order.append(["DESCRIPTION:" + escape(words(1 + random.next(5)))]) }
        if hasDue, random.next(3) == 0 { order.append([pick(["RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1;COUNT=5", "RRULE:FREQ=DAILY;BYHOUR=9,17"])]) }
        if random.next(3) == 0 { order.append([pick(["RELATED-TO:\(number + 1)", "RELATED-TO;RELTYPE=PARENT:parent@example.org"])]) }
        if random.next(2) == 0 { order.append(["CREATED:20261101T080000Z"]) }
        if random.next(2) == 0 { order.append(["LAST-MODIFIED:20261101T080000Z"]) }
        let others: [[String]] = [
            ["X-APPLE-SORT-ORDER:\(number)"],
            ["SEQUENCE:\(random.next(5))"],
            ["CLASS:PRIVATE"],
            ["URL:https://example.org/task?id=\(number)"],
            ["GEO:52.52;13.40"],
            ["X-OC-HIDESUBTASKS:1"],
            ["X-CUSTOM;X-PARAM=\"a:b;c\":value\\, with\\; escapes"],
            ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT15M", "DESCRIPTION:Reminder", "END:VALARM"],
        ]
        for other in others where random.next(2) == 0 { order.append(other) }
        for index in order.indices.reversed() { order.swapAt(index, random.next(index + 1)) }
        todo += order.flatMap { $0 }
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", pick(["PRODID:-//Nextcloud Tasks v0.16", "PRODID:-//Apple Inc.//iOS 18//EN", "PRODID:+//IDN tasks.org//android-140000//EN"])]
        if zone == "berlin" {
            lines += ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
                      "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]
        }
        lines += ["BEGIN:VTODO"] + todo + ["END:VTODO", "END:VCALENDAR"]
        text = lines.map { $0 + "\r\n" }.joined()
    }

    /// The logical lines of an iCalendar text: unfolded, CRLF or LF.
    public static func unfoldedLines(_ text: String) -> [String] {
        var lines: [String] = []
        for physical in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: true) {
            if let first = physical.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += physical.dropFirst()
            } else {
                lines.append(String(physical))
            }
        }
        return lines
    }

    /// A line's property name, upper-cased (`DUE` of `DUE;TZID=…:…`).
    public static func name(_ line: String) -> String {
        String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
    }

    /// The categories an object's CATEGORIES lines hold, trimmed, each once.
    public static func categories(_ text: String) -> Set<String> {
        var found = Set<String>()
        for line in unfoldedLines(text) where name(line) == "CATEGORIES" {
            let value = line.drop { $0 != ":" }.dropFirst()
            var current = ""
            var escaped = false
            for character in value {
                if escaped {
                    current.append(character == "n" || character == "N" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "," {
                    found.insert(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            found.insert(current.trimmingCharacters(in: .whitespaces))
        }
        found.remove("")
        return found
    }

    /// The lines of `before` that `after` must hold unchanged, in order,
    /// when an edit touched only the properties named in `touched`.
    /// Only the VTODO's own lines are touched; an alarm's or a time
    /// zone's (a VALARM's DESCRIPTION, a VTIMEZONE's DTSTART) never are.
    public static func untouchedLines(_ text: String, touched: Set<String>) -> [String] {
        var components: [String] = []
        return unfoldedLines(text).filter { line in
            let name = name(line)
            let value = String(line.drop { $0 != ":" }.dropFirst()).uppercased()
            if name == "BEGIN" { components.append(value) }
            defer { if name == "END" { components.removeLast() } }
            return components.last != "VTODO" || !touched.contains(name)
        }
    }
}
