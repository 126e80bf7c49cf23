import Foundation
import Testing
import TodoCore
@testable import TodoICalendar

/// Repeats as other apps write them: a rule the engine does not follow kept
/// as it came, and an occurrence completed as an instance of its own
/// (Thunderbird, eM Client) read as the series moved on, once.
@Suite("Repeats other apps write")
struct RepeatsOtherAppsWriteTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func calendar(_ lines: [String]) throws -> ICalendarComponent {
        try ICalendarComponent.read(Array((["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8))
    }

    static func series(_ extra: [String] = [], rule: String = "FREQ=WEEKLY") -> [String] {
        ["BEGIN:VTODO", "UID:boiler-1", "SUMMARY:water the plants", "DUE;VALUE=DATE:20301104", "RRULE:\(rule)"] + extra + ["END:VTODO"]
    }

    static func instance(_ day: String, completed: String? = "20301104T180000Z", status: String? = "COMPLETED") -> [String] {
        ["BEGIN:VTODO", "UID:boiler-1", "SUMMARY:water the plants", "RECURRENCE-ID;VALUE=DATE:\(day)"]
            + (status.map { ["STATUS:\($0)"] } ?? []) + (completed.map { ["COMPLETED:\($0)"] } ?? []) + ["END:VTODO"]
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> TodoDue { .day(CalendarDay(year: year, month: month, day: day)!) }

    // MARK: Kept rules

    @Test func aRuleBeyondTheEngineAndRDATEAreKeptAndWrittenBackUntouched() throws {
        let hourly = try Self.calendar(Self.series(rule: "FREQ=DAILY;BYHOUR=9,17"))
        let kept = try VTodo.fields(of: hourly, timeZone: Self.utc)
        #expect(kept.recurrence?.kept == "FREQ=DAILY;BYHOUR=9,17")
        let withDates = try Self.calendar(Self.series(["RDATE;VALUE=DATE:20301105,20301112"], rule: "FREQ=WEEKLY;BYDAY=MO"))
        let dated = try VTodo.fields(of: withDates, timeZone: Self.utc)
        #expect(dated.recurrence?.kept == "FREQ=WEEKLY;BYDAY=MO;X-TODO-RDATE=20301105,20301112")
        // Another field edited: the RRULE and RDATE lines stay as they came.
        var edited = dated
        edited.text = "water the plants and the roses"
        let written = String(decoding: VTodo.write(edited, over: withDates, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000)).bytes(), as: UTF8.self)
        #expect(written.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n") && written.contains("RDATE;VALUE=DATE:20301105,20301112\r\n"))
        // A repeat set here replaces both.
        edited.recurrence = TodoRepeat(parsing: "weekly")
        let replaced = String(decoding: VTodo.write(edited, over: withDates, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000)).bytes(), as: UTF8.self)
        #expect(replaced.contains("RRULE:FREQ=WEEKLY\r\n") && !replaced.contains("RDATE"))
        // A kept rule written into a new task says the same again.
        var fresh = VTodoFields(uid: "new-1")
        fresh.recurrence = dated.recurrence
        let made = VTodo.write(fresh, over: nil, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(try VTodo.fields(of: made, timeZone: Self.utc).recurrence == dated.recurrence)
    }

    /// Thunderbird's tasks repeat from DTSTART and often have no DUE: the
    /// rule is kept, not dropped as a repeat without a due date.
    @Test func aRuleOnATaskWithNoDueIsKept() throws {
        let calendar = try Self.calendar(["BEGIN:VTODO", "UID:t-1", "SUMMARY:backup", "DTSTART;VALUE=DATE:20301104", "RRULE:FREQ=WEEKLY", "END:VTODO"])
        let fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(fields.recurrence?.kept == "FREQ=WEEKLY;X-TODO-KEPT=TRUE" && fields.due == nil)
        let written = String(decoding: VTodo.write(fields, over: nil, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000)).bytes(), as: UTF8.self)
        #expect(written.contains("RRULE:FREQ=WEEKLY\r\n") && !written.contains("X-TODO-KEPT"))
    }

    // MARK: Completed instances

    @Test func anOccurrenceCompletedAsAnInstanceMovesTheSeriesOnOnce() throws {
        let calendar = try Self.calendar(Self.series() + Self.instance("20301104"))
        let fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(!fields.isDone && fields.due == Self.day(2030, 11, 11))
        // As its lines say it, the series has not moved.
        #expect(try VTodo.fields(of: calendar, timeZone: Self.utc, asWritten: true).due == Self.day(2030, 11, 4))
        // Two in a row: two weeks on.
        let two = try Self.calendar(Self.series() + Self.instance("20301104") + Self.instance("20301111", completed: "20301111T080000Z"))
        #expect(try VTodo.fields(of: two, timeZone: Self.utc).due == Self.day(2030, 11, 18))
        // One reopened (NEEDS-ACTION), or of an occurrence already past, moves nothing.
        let reopened = try Self.calendar(Self.series() + Self.instance("20301104", completed: nil, status: "NEEDS-ACTION"))
        #expect(try VTodo.fields(of: reopened, timeZone: Self.utc).due == Self.day(2030, 11, 4))
        let older = try Self.calendar(Self.series() + Self.instance("20301028"))
        #expect(try VTodo.fields(of: older, timeZone: Self.utc).due == Self.day(2030, 11, 4))
    }

    @Test func theInstanceNamesItsOccurrenceByDTSTARTAndTheDatesMoveTogether() throws {
        let calendar = try Self.calendar(
            Self.series(["DTSTART;VALUE=DATE:20301102"]) + Self.instance("20301102")
        )
        let fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(fields.due == Self.day(2030, 11, 11) && fields.scheduled == Self.day(2030, 11, 9))
    }

    @Test func completingTheLastOccurrenceCompletesTheTask() throws {
        let calendar = try Self.calendar(Self.series(rule: "FREQ=WEEKLY;COUNT=2") + Self.instance("20301104"))
        let moved = try VTodo.fields(of: calendar, timeZone: Self.utc)
        #expect(moved.due == Self.day(2030, 11, 11) && moved.recurrence?.rule?.end == .count(1))
        let last = try Self.calendar(Self.series(rule: "FREQ=WEEKLY;COUNT=2") + Self.instance("20301104") + Self.instance("20301111", completed: "20301111T090000Z"))
        let done = try VTodo.fields(of: last, timeZone: Self.utc)
        #expect(done.isDone && done.completedAt == Date(timeIntervalSince1970: 1_920_618_000))
    }

    /// Written back, the series says where it moved to, and reads the same.
    @Test func aWriteOverTheSeriesWritesItsDatesWhereTheyMovedTo() throws {
        let calendar = try Self.calendar(Self.series() + Self.instance("20301104"))
        var fields = try VTodo.fields(of: calendar, timeZone: Self.utc)
        fields.note = "the ferns too"
        let written = VTodo.write(fields, over: calendar, timeZone: Self.utc, now: Date(timeIntervalSince1970: 1_900_000_000))
        let text = String(decoding: written.bytes(), as: UTF8.self)
        #expect(text.contains("DUE;VALUE=DATE:20301111") && text.contains("RECURRENCE-ID;VALUE=DATE:20301104"))
        var back = try VTodo.fields(of: written, timeZone: Self.utc)
        #expect(back.updatedAt == Date(timeIntervalSince1970: 1_900_000_000))
        back.updatedAt = fields.updatedAt
        #expect(back == fields)
    }
}
