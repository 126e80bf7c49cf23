import Foundation
import TestSupport
import TodoCore
@testable import TodoICalendar

/// A VTODO made from random fields, with lines no mapping knows among them,
/// in a random order, folded at random octets (inside characters too), with
/// CRLF or LF line breaks.
struct RandomVTodo {
    static let alphabet: [String] = ["a", "Z", "0", " ", ",", ";", ":", "\\", "\"", "\n", "é", "ß", "😀", "\u{301}", "x", "-", "="]
    static let paris = TimeZone(identifier: "Europe/Paris")!

    var fields: VTodoFields
    /// The logical lines, unfolded, in order (BEGIN and END lines included).
    var lines: [String] = []
    /// For each line, where it is folded (octet offsets) and with which whitespace.
    var folds: [[(offset: Int, space: UInt8)]] = []
    var lineBreak: [UInt8]
    /// The indexes of the lines no mapping reads.
    var unmapped: Set<Int> = []

    static func text(_ random: inout SeededRandom, _ length: ClosedRange<Int>) -> String {
        let count = length.lowerBound + random.next(length.count)
        return (0..<count).map { _ in alphabet[random.next(alphabet.count)] }.joined()
    }

    init(_ random: inout SeededRandom) {
        fields = VTodoFields(uid: random.next(2) == 0 ? UUID(derivedFrom: "\(random.next())").uuidString : "\(random.next(1_000_000))@example.org")
        var mapped: [String] = ["UID:" + fields.uid]
        if random.next(5) > 0 {
            fields.text = Self.text(&random, 0...40)
            mapped.append("SUMMARY:" + ICalendarText.escape(fields.text))
        }
        fields.isDone = random.next(2) == 0
        if fields.isDone {
            fields.completedAt = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(50_000_000)))
            mapped += ["STATUS:COMPLETED", "COMPLETED:" + VTodo.utc(fields.completedAt!)]
        }
        // In process, or done, with when it was started (X-TODO-START), or in
        // process without (started when it last changed: set below).
        var startedAtLastChange = false
        if !fields.isDone, random.next(2) == 0 {
            let inProcess = random.next(2) == 1
            mapped.append(inProcess ? "STATUS:IN-PROCESS" : "STATUS:NEEDS-ACTION")
            startedAtLastChange = inProcess && random.next(2) == 0
        }
        if (fields.isDone || mapped.last == "STATUS:IN-PROCESS") && !startedAtLastChange && random.next(2) == 0 {
            let start = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(50_000_000)))
            fields.start = .moment(start)
            mapped.append("X-TODO-START:" + VTodo.utc(start))
        } else if mapped.last == "STATUS:IN-PROCESS" {
            startedAtLastChange = true
        }
        switch random.next(4) {
        case 0:
            let day = CalendarDay(daysSince1970: 19_000 + random.next(3_000))
            fields.due = .day(day)
            mapped.append("DUE;VALUE=DATE:" + VTodo.compact(day))
        case 1:
            let date = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(50_000_000)))
            fields.due = .moment(date)
            mapped.append("DUE:" + VTodo.utc(date))
        case 2:
            let date = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(50_000_000)))
            fields.due = .moment(date)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.paris
            let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let local = String(format: "%04d%02d%02dT%02d%02d%02d", p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!)
            mapped.append("DUE;TZID=Europe/Paris:" + local)
        default:
            break
        }
        if random.next(3) > 0 {
            let rank = random.next(10)
            fields.priority = VTodo.priority(rank)
            mapped.append("PRIORITY:\(rank)")
        }
        var tags: [String] = []
        for _ in 0..<random.next(4) {
            let tag = "t" + Self.text(&random, 0...6).replacingOccurrences(of: "\n", with: "") + "g"
            if !tags.contains(tag) { tags.append(tag) }
        }
        fields.tags = tags
        if !tags.isEmpty {
            let cut = random.next(tags.count + 1)
            for part in [tags[..<cut], tags[cut...]] where !part.isEmpty {
                mapped.append("CATEGORIES:" + part.map(ICalendarText.escape).joined(separator: ","))
            }
        }
        if random.next(2) == 0 {
            fields.note = "n" + Self.text(&random, 0...60)
            mapped.append("DESCRIPTION:" + ICalendarText.escape(fields.note!))
        }
        switch random.next(4) {
        case 0:
            var rule = RecurrenceRule(RecurrenceRule.Frequency.allCases[random.next(4)], interval: 1 + random.next(12))
            if random.next(2) == 0 { rule.byDay = [.init(1 + random.next(7))] }
            if random.next(2) == 0 { rule.end = .count(1 + random.next(9)) }
            let anchor = [TodoRepeat.Anchor.due, .strict, .completion][random.next(3)]
            // With no DUE to follow it from, the rule is kept as it came.
            fields.recurrence = fields.due == nil ? TodoRepeat.keeping(rule.rrule, dates: nil) : TodoRepeat(rule: rule, anchor: anchor)
            mapped.append("RRULE:" + rule.rrule)
            if anchor == .strict { mapped.append("X-TODO-STRICT:TRUE") }
            if anchor == .completion { mapped.append("X-TODO-FROM:COMPLETION") }
        case 1:
            let rule = "FREQ=DAILY;BYHOUR=9,17;COUNT=\(1 + random.next(9))"
            fields.recurrence = TodoRepeat(kept: rule)
            mapped.append("RRULE:" + rule)
        default:
            break
        }
        if random.next(3) == 0 {
            fields.project = ["home", "home.garden", "work.q4", "projekt.é"][random.next(4)]
            mapped.append("X-TODO-PROJECT:" + ICalendarText.escape(fields.project!))
        }
        // A parent (RELTYPE=PARENT, or none: PARENT is its default) and blockers (DEPENDS-ON):
        // UIDs as apps write them, UUIDs in either case or any other (`1001`, `task-7@host`).
        func uid(_ seed: String) -> String {
            let id = UUID(derivedFrom: seed)
            switch random.next(3) {
            case 0: return id.lowercasedString
            case 1: return id.uuidString
            default: return "\(seed)@example.org"
            }
        }
        if random.next(3) == 0 {
            let parent = uid("parent-\(random.next(1_000))")
            fields.parent = parent
            mapped.append((random.next(2) == 0 ? "RELATED-TO;RELTYPE=PARENT:" : "RELATED-TO:") + parent)
        }
        var blockers: [String] = []
        for _ in 0..<random.next(3) {
            let blocker = uid("blocker-\(random.next(1_000))")
            guard !blockers.map(VTodo.linkKey).contains(VTodo.linkKey(blocker)) else { continue }
            blockers.append(blocker)
            mapped.append("RELATED-TO;RELTYPE=DEPENDS-ON:" + blocker)
        }
        fields.blockedBy = blockers
        // DTSTART (scheduled), X-TODO-WAIT and X-TODO-UNTIL: a date or a UTC time each, or none.
        for (name, keyPath) in [("DTSTART", \VTodoFields.scheduled), ("X-TODO-WAIT", \VTodoFields.wait), ("X-TODO-UNTIL", \VTodoFields.until)] {
            switch random.next(3) {
            case 0:
                let day = CalendarDay(daysSince1970: 19_000 + random.next(3_000))
                fields[keyPath: keyPath] = .day(day)
                mapped.append(name + ";VALUE=DATE:" + VTodo.compact(day))
            case 1:
                let date = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(50_000_000)))
                fields[keyPath: keyPath] = .moment(date)
                mapped.append(name + ":" + VTodo.utc(date))
            default:
                break
            }
        }
        fields.createdAt = Date(timeIntervalSince1970: Double(1_600_000_000 + random.next(90_000_000)))
        fields.updatedAt = Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(90_000_000)))
        if startedAtLastChange { fields.start = .moment(fields.updatedAt!) }
        mapped += ["CREATED:" + VTodo.utc(fields.createdAt!), "LAST-MODIFIED:" + VTodo.utc(fields.updatedAt!),
                   "DTSTAMP:" + VTodo.utc(fields.updatedAt!)]

        let others: [[String]] = [
            ["X-APPLE-SORT-ORDER:\(random.next(1_000_000))"],
            ["X-CUSTOM;X-P=\"a:b;c\",plain:" + ICalendarText.escape(Self.text(&random, 0...50))],
            ["RELATED-TO;RELTYPE=SIBLING:sibling-\(random.next(100))"],
            ["RELATED-TO;RELTYPE=CHILD:" + UUID(derivedFrom: "child-\(random.next(100))").lowercasedString],
            ["ATTACH;FMTTYPE=text/plain:https://example.com/a?b=c;d"],
            ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT\(random.next(60))M", "DESCRIPTION:Reminder é", "END:VALARM"],
        ]
        // Mapped lines and the others, shuffled together (a component's lines stay together).
        var blocks: [(lines: [String], mapped: Bool)] = mapped.map { ([$0], true) }
        for other in others where random.next(3) > 0 { blocks.append((other, false)) }
        for index in blocks.indices.reversed() {
            blocks.swapAt(index, random.next(index + 1))
        }
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//random//test//EN", "BEGIN:VTODO"]
        for block in blocks {
            for line in block.lines {
                if !block.mapped { unmapped.insert(lines.count) }
                lines.append(line)
            }
        }
        lines += ["END:VTODO", "END:VCALENDAR"]
        lineBreak = random.next(2) == 0 ? [0x0D, 0x0A] : [0x0A]
        for line in lines {
            let count = line.utf8.count
            var lineFolds: [(offset: Int, space: UInt8)] = []
            var offset = 0
            while count - offset > 1, random.next(3) == 0 || count - offset > 75 {
                offset += 1 + random.next(min(75, count - offset - 1))
                lineFolds.append((offset, random.next(4) == 0 ? 0x09 : 0x20))
            }
            folds.append(lineFolds)
        }
    }

    /// The line at `index`, folded as it is sent, folds broken by `lineBreak`.
    func folded(_ index: Int) -> [UInt8] {
        folded(index, lineBreak: lineBreak)
    }

    func folded(_ index: Int, lineBreak: [UInt8]) -> [UInt8] {
        let bytes = Array(lines[index].utf8)
        var out: [UInt8] = []
        var start = 0
        for fold in folds[index] {
            out += bytes[start..<fold.offset]
            out += lineBreak + [fold.space]
            start = fold.offset
        }
        return out + bytes[start...]
    }

    /// The object as a client sends it.
    var bytes: [UInt8] {
        lines.indices.flatMap { folded($0) + lineBreak }
    }

    /// The line at `index` as it is written back unchanged: as it came, its
    /// line breaks CRLF; folded anew (between characters) when a fold fell
    /// inside a character, so the bytes as they came are not text.
    func kept(_ index: Int) -> [UInt8] {
        let asSent = folded(index, lineBreak: [0x0D, 0x0A])
        if String(validating: asSent, as: UTF8.self) != nil { return asSent }
        var refolded: [UInt8] = []
        ICalendarComponent.fold(Array(lines[index].utf8), to: &refolded)
        return refolded
    }

    /// The object as it is written back unchanged, every line break CRLF.
    var rewritten: [UInt8] {
        lines.indices.flatMap { kept($0) + [0x0D, 0x0A] }
    }

    /// The lines no mapping reads, as they are kept.
    var unmappedLines: [[UInt8]] {
        unmapped.sorted().map { kept($0) }
    }

    /// Every physical line as sent.
    var originalLines: [[UInt8]] {
        VTodoRoundTripTests.physicalLines(rewritten)
    }
}
