import Foundation
import PropertyBased
import TestSupport
import Testing
import TodoCore
@testable import TodoICalendar

/// Random VTODOs, folded and escaped every way RFC 5545 allows, beside
/// lines and components no mapping knows: read, they say the fields they
/// were made from; written back unchanged, they are the same bytes; edited
/// through the mapping, every line it does not map comes back byte for byte.
@Suite("VTODO read and written")
struct VTodoRoundTripTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// `ICALENDAR_CASES=N swift test --filter VTodoRoundTripTests` runs more.
    static let cases = ProcessInfo.processInfo.environment["ICALENDAR_CASES"].flatMap { Int($0) } ?? 300

    @Test func randomVTodosRoundTripAndKeepWhatTheMappingDoesNotMap() async {
        await propertyCheck(count: Self.cases, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
            var random = SeededRandom(seed: UInt64(seed))
            let made = RandomVTodo(&random)
            let bytes = made.bytes
            let calendar: ICalendarComponent
            do {
                calendar = try ICalendarComponent.read(bytes)
            } catch {
                Issue.record("seed \(seed): \(error)")
                return
            }
            // Read: the fields it was made from.
            // Tags are a set: CATEGORIES lines may come in any order.
            let read = Self.sortingTags(try VTodo.fields(of: calendar, timeZone: Self.utc))
            #expect(read == Self.sortingTags(made.fields), "seed \(seed): read \(read), made \(made.fields)")
            // Written back unchanged: the same bytes, lines ending in CRLF.
            #expect(calendar.bytes() == made.rewritten, "seed \(seed)")

            // Edited: the new fields read back, every unmapped line byte for byte.
            var edited = made.fields
            edited.text = RandomVTodo.text(&random, 0...30)
            edited.isDone.toggle()
            edited.completedAt = edited.isDone ? Date(timeIntervalSince1970: 1_800_000_000) : nil
            edited.tags = random.next(4) == 0 ? [] : ["new", "set"]
            edited.note = random.next(2) == 0 ? nil : "line one\nline; two, three"
            edited.parent = random.next(2) == 0 ? nil : UUID(derivedFrom: "new parent \(seed)").lowercasedString
            edited.blockedBy = random.next(2) == 0 ? [] : [UUID(derivedFrom: "a \(seed)").lowercasedString, "b-\(seed)@example.org"]
            let written = VTodo.write(edited, over: calendar, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000)).bytes()
            let reread = try ICalendarComponent.read(written)
            var expected = edited
            expected.updatedAt = Date(timeIntervalSince1970: 1_900_000_000)
            let edits = Self.sortingTags(try VTodo.fields(of: reread, timeZone: Self.utc))
            #expect(edits == Self.sortingTags(expected), "seed \(seed): read \(edits), written \(expected)")
            for unknown in made.unmappedLines {
                #expect(written.firstRange(of: unknown) != nil, "seed \(seed): \(String(decoding: unknown, as: UTF8.self))")
            }
            // Every line written here is at most 75 octets.
            for line in Self.physicalLines(written) where !made.originalLines.contains(line) {
                #expect(line.count <= 75, "seed \(seed)")
            }
        }
    }

    /// RELATED-TO lines: a link still wanted stays as written (another app's
    /// uppercase UID included), one no longer wanted goes, a new one is
    /// added; lines that are not ours (CHILD, a second PARENT) stay.
    @Test func relatedToLinesChangeOnlyWhereTheLinksChanged() throws {
        let a = "A0000000-0000-4000-8000-00000000000A", b = "b0000000-0000-4000-8000-00000000000b"
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "BEGIN:VTODO", "UID:t1", "SUMMARY:s",
            "RELATED-TO:\(a)", "RELATED-TO;RELTYPE=DEPENDS-ON:\(a)", "RELATED-TO;RELTYPE=DEPENDS-ON:\(b)",
            "RELATED-TO;RELTYPE=CHILD:\(b)", "RELATED-TO;RELTYPE=PARENT:trip@example.org", "RELATED-TO;RELTYPE=PARENT:\(b)",
            "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        let calendar = try ICalendarComponent.read(Array(text.utf8))
        var fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(fields.parent == a)
        #expect(fields.blockedBy == [a, b])
        let c = UUID(parsing: "c0000000-0000-4000-8000-00000000000c")!
        fields.blockedBy = [a.lowercased(), c.lowercasedString]
        let written = String(decoding: VTodo.write(fields, over: calendar, timeZone: Self.utc, now: Date()).bytes(), as: UTF8.self)
        #expect(written.contains("RELATED-TO:\(a)\r\n"), "the parent as written")
        #expect(written.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(a)\r\n"), "a blocker kept as written")
        #expect(!written.contains("DEPENDS-ON:\(b)"), "a blocker removed")
        #expect(written.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(c.lowercasedString)\r\n"), "a blocker added")
        for kept in ["RELTYPE=CHILD:\(b)", "PARENT:trip@example.org", "RELTYPE=PARENT:\(b)"] {
            #expect(written.contains(kept), "\(kept) stays")
        }
        let reread = try VTodo.fields(of: try ICalendarComponent.read(Array(written.utf8)), timeZone: Self.utc)
        #expect(reread.parent == a && Set(reread.blockedBy) == [a, c.lowercasedString])
    }

    @Test func aFoldNeverSplitsACharacterAndACharacterSplitAcrossAFoldReadsWhole() throws {
        let summary = String(repeating: "é😀", count: 40)
        let fields = { var f = VTodoFields(uid: "a@b"); f.text = summary; return f }()
        let bytes = VTodo.write(fields, over: nil, timeZone: Self.utc, now: Date(timeIntervalSince1970: 0)).bytes()
        for line in Self.physicalLines(bytes) {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil)
        }
        // A client that folds inside a character (as RFC 5545 permits octet-wise).
        var split: [UInt8] = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:caf".utf8)
        split += [0xC3, 0x0D, 0x0A, 0x20, 0xA9] + Array("\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try VTodo.fields(of: ICalendarComponent.read(split), timeZone: Self.utc).text == "café")
    }

    @Test func aLineFoldedInsideACharacterIsWrittenAgainAsText() throws {
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nX-NOTE:caf".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xA9] + Array(" au lait\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let written = try ICalendarComponent.read(bytes).bytes()
        let text = try #require(String(validating: written, as: UTF8.self))
        #expect(text.contains("X-NOTE:café au lait\r\n"), "\(text)")
    }

    @Test func readingAndWritingTakeTheSameVTodo() throws {
        // Only occurrences (RECURRENCE-ID): the first is read, and the same one rewritten.
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:r\r\nRECURRENCE-ID:20261201T000000Z\r\nSUMMARY:old\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarComponent.read(Array(text.utf8))
        var fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(fields.text == "old")
        fields.text = "new"
        let written = VTodo.write(fields, over: calendar, timeZone: Self.utc, now: Date(timeIntervalSince1970: 0))
        #expect(try VTodo.fields(of: written, timeZone: Self.utc).text == "new")
        // A VTODO alone, not inside a VCALENDAR, is not a calendar object.
        let bare = try ICalendarComponent.read(Array("BEGIN:VTODO\r\nUID:b\r\nEND:VTODO\r\n".utf8))
        #expect(throws: VTodoError.noVTodo) { try VTodo.fields(of: bare, timeZone: Self.utc) }
    }

    @Test func theMappingTableHolds() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:20261201-1@example.com
            SUMMARY:Buy paint\\, brushes\\; tape\\nand more
            STATUS:COMPLETED
            COMPLETED:20261202T101500Z
            DUE;TZID=Europe/Paris:20261203T090000
            PRIORITY:3
            CATEGORIES:home,diy
            CATEGORIES:home,errands
            DESCRIPTION:first\\Nsecond
            RRULE:FREQ=WEEKLY;INTERVAL=2
            CREATED:20261101T000000Z
            LAST-MODIFIED:20261102T000000Z
            END:VTODO
            END:VCALENDAR
            """
        let fields = try VTodo.fields(of: ICalendarComponent.read(Array(text.utf8)), timeZone: Self.utc)
        #expect(fields.text == "Buy paint, brushes; tape\nand more")
        #expect(fields.isDone && fields.completedAt == Date(timeIntervalSince1970: 1_796_206_500))
        #expect(fields.due == .moment(Date(timeIntervalSince1970: 1_796_284_800)))
        #expect(fields.priority == .high)
        #expect(fields.tags == ["home", "diy", "errands"])
        #expect(fields.note == "first\nsecond")
        #expect(fields.recurrence == TodoRepeat(every: 2, .weekly))
        #expect(VTodo.priority(5) == .medium && VTodo.priority(9) == .low && VTodo.priority(0) == nil)
        let other = try VTodo.fields(of: ICalendarComponent.read(Array("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:1\nDUE;VALUE=DATE:20261224\nRRULE:FREQ=DAILY;BYHOUR=9,17\nEND:VTODO\nEND:VCALENDAR\n".utf8)), timeZone: Self.utc)
        #expect(other.due == .day(CalendarDay(year: 2026, month: 12, day: 24)!))
        #expect(other.recurrence == TodoRepeat(kept: "FREQ=DAILY;BYHOUR=9,17") && other.recurrence?.rule == nil)
    }

    @Test func whatIsNotOneTaskIsRefusedWithTheReason() {
        func read(_ text: String) -> (any Error)? {
            do {
                _ = try VTodo.fields(of: ICalendarComponent.read(Array(text.utf8)), timeZone: Self.utc)
                return nil
            } catch { return error }
        }
        #expect(read("hello") as? ICalendarError == .malformedLine(line: 1))
        #expect(read("") as? ICalendarError == .notICalendar)
        #expect(read("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:1\nEND:VCALENDAR\n") as? ICalendarError == .unbalanced(line: 4))
        #expect(read("BEGIN:VCALENDAR\nEND:VCALENDAR\nX:1\n") as? ICalendarError == .afterEnd(line: 3))
        #expect(read("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nEND:VEVENT\nEND:VCALENDAR\n") as? VTodoError == .event)
        #expect(read("BEGIN:VCALENDAR\nEND:VCALENDAR\n") as? VTodoError == .noVTodo)
        #expect(read("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR\n") as? VTodoError == .noUID)
        #expect(read("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:1\nEND:VTODO\nBEGIN:VTODO\nUID:2\nEND:VTODO\nEND:VCALENDAR\n") as? VTodoError == .severalUIDs)
        #expect(read("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:\u{FF}\nEND:VTODO\nEND:VCALENDAR\n".replacingOccurrences(of: "\u{FF}", with: "x")) == nil)
        var invalid = Array("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:".utf8)
        invalid += [0xFF] + Array("\nEND:VTODO\nEND:VCALENDAR\n".utf8)
        #expect((try? ICalendarComponent.read(invalid)) == nil)
        let deep = String(repeating: "BEGIN:X\n", count: 20) + String(repeating: "END:X\n", count: 20)
        #expect(read(deep) as? ICalendarError == .tooDeep(limit: ICalendarComponent.maxDepth))
    }

    @Test func aMebibyteOfFoldedLinesIsReadInOnePass() throws {
        // One property folded into 1 MiB of one-octet segments.
        var body = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:1\r\nX-BIG:a".utf8)
        for _ in 0..<(1 << 18) { body += [0x0D, 0x0A, 0x20, UInt8(ascii: "b")] }
        body += Array("\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let calendar = try ICalendarComponent.read(body)
        #expect(calendar.components[0].property("X-BIG")?.value.utf8.count == 1 + (1 << 18))
        #expect(calendar.bytes() == body)
    }

    /// The fields with their sets (tags, blockers) in one order, and UUIDs in one case.
    static func sortingTags(_ fields: VTodoFields) -> VTodoFields {
        var sorted = fields
        sorted.tags.sort()
        sorted.parent = sorted.parent.map(VTodo.linkKey)
        sorted.blockedBy = sorted.blockedBy.map(VTodo.linkKey).sorted()
        return sorted
    }

    static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// The scheduled date is DTSTART only where RFC 5545 allows it beside DUE
/// (the same value type, earlier); otherwise X-TODO-SCHEDULED. Either way
/// it reads back the same.
struct ScheduledDateTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let day = CalendarDay(year: 2026, month: 12, day: 10)!

    func written(due: TodoDue?, scheduled: TodoDue) throws -> (text: String, read: TodoDue?) {
        var fields = VTodoFields(uid: "a")
        fields.text = "x"
        fields.due = due
        fields.scheduled = scheduled
        let calendar = VTodo.write(fields, over: nil, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_795_000_000))
        let text = String(decoding: calendar.bytes(), as: UTF8.self)
        return (text, try VTodo.fields(of: calendar, timeZone: Self.utc).scheduled)
    }

    @Test func dtstartOnlyWhereItFitsDue() throws {
        let morning = TodoDue.moment(Self.day.start(in: Self.utc) + 9 * 3_600)
        let cases: [(due: TodoDue?, scheduled: TodoDue, dtstart: Bool)] = [
            (nil, .day(Self.day), true),
            (.day(Self.day.adding(days: 2)), .day(Self.day), true),
            (.day(Self.day), .day(Self.day), false),
            (.day(Self.day.adding(days: 2)), morning, false),
            (.moment(Self.day.start(in: Self.utc) + 12 * 3_600), morning, true),
            (.moment(Self.day.start(in: Self.utc) + 8 * 3_600), morning, false),
        ]
        for (due, scheduled, dtstart) in cases {
            let (text, read) = try written(due: due, scheduled: scheduled)
            #expect(text.contains("\r\nDTSTART") == dtstart, "\(text)")
            #expect(text.contains("X-TODO-SCHEDULED") == !dtstart, "\(text)")
            #expect(read == scheduled)
        }
    }
}
