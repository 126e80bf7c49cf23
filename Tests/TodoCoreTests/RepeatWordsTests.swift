import Foundation
import Testing
import TodoCore

/// Repeats as people write them, and as `todo show` says them back; the
/// next occurrence of the rules they make.
@Suite("Repeats in words")
struct RepeatWordsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }

    @Test(arguments: [
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
        ("Mon,Wed,Fri", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "mon,wed,fri"),
        ("monday and thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "mon,thu"),
        ("every monday", "FREQ=WEEKLY;BYDAY=MO", "mon"),
        ("every 2 weeks", "2w", "2w"),
        ("every other week on tue, fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,FR", "every 2 weeks on tue,fri"),
        ("every day", "daily", "daily"),
        ("every 3 days", "3d", "3d"),
        ("monthly on the last friday", "FREQ=MONTHLY;BYDAY=-1FR", "monthly on the last friday"),
        ("monthly on the 2nd tuesday", "FREQ=MONTHLY;BYDAY=2TU", "monthly on the 2nd tuesday"),
        ("monthly on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "monthly on the 15th"),
        ("monthly on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15", "monthly on the 1st and 15th"),
        ("monthly on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1", "monthly on the last day"),
        ("monthly on the last weekday", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "monthly on the last weekday"),
        ("every 3 months on the 15th", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15", "every 3 months on the 15th"),
        ("quarterly", "3m", "3m"),
        ("yearly", "yearly", "yearly"),
        ("yearly on dec 24", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24", "yearly on dec 24"),
        ("every 3 days from completion", "FREQ=DAILY;INTERVAL=3;X-TODO-FROM=COMPLETION", "3d from completion"),
        ("weekly, 10 times", "FREQ=WEEKLY;COUNT=10", "weekly, 10 times"),
        ("weekdays, until 2027-06-30", "FREQ=WEEKLY;UNTIL=20270630;BYDAY=MO,TU,WE,TH,FR", "weekdays, until 2027-06-30"),
        ("weekly, except 2026-12-24", "FREQ=WEEKLY;X-TODO-EXDATE=20261224", "weekly, except 2026-12-24"),
        ("weekdays!", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;X-TODO-STRICT=TRUE", "weekdays!"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"),
        ("RRULE:FREQ=weekly;byday=sa", "FREQ=WEEKLY;BYDAY=SA", "sat"),
    ])
    func wordsReadAsTheRuleAndSayItBack(typed: String, stored: String, said: String) throws {
        let repeating = try #require(TodoRepeat(parsing: typed), "\(typed)")
        #expect(repeating.description == stored)
        #expect(repeating.words == said)
        #expect(TodoRepeat(parsing: said) == repeating, "what show prints reads back as the same repeat")
        #expect(TodoRepeat(parsing: stored) == repeating, "the stored form reads back as the same repeat")
    }

    @Test(arguments: ["every", "every 3", "monthly on the 32nd", "mon,funday", "every 3 lightyears", "weekly, 0 times", "daily on monday", "yearly on feb 30"])
    func aWrongRepeatIsNone(_ text: String) {
        #expect(TodoRepeat(parsing: text) == nil)
        #expect(throws: TodoFieldError.badRepeat(text)) { try TodoRepeat(typed: text) }
    }

    static func next(_ rule: String, due: TodoDue, doneOn today: String, in zone: TimeZone = utc) -> (due: TodoDue, repeat: TodoRepeat)? {
        TodoRepeat(parsing: rule)!.next(after: due, completedOn: day(today), in: zone)
    }

    @Test(arguments: [
        // Weekdays, done on a Friday: the Monday.
        ("weekdays", "2026-12-04", "2026-12-04", "2026-12-07"),
        // Weekdays, done days late: the first weekday from today on.
        ("weekdays", "2026-11-27", "2026-12-05", "2026-12-07"),
        ("weekdays!", "2026-11-27", "2026-12-05", "2026-11-30"),
        ("monthly on the last friday", "2026-11-27", "2026-11-27", "2026-12-25"),
        ("monthly on the 15th", "2026-12-15", "2026-12-10", "2027-01-15"),
        // From completion: counted from the day it was done.
        ("every 3 days from completion", "2026-12-01", "2026-12-05", "2026-12-08"),
        ("weekdays from completion", "2026-12-01", "2026-12-04", "2026-12-07"),
        // An exception is skipped.
        ("weekly, except 2026-12-24", "2026-12-17", "2026-12-17", "2026-12-31"),
    ])
    func theNextOccurrence(rule: String, due: String, today: String, expected: String) throws {
        let next = try #require(Self.next(rule, due: .day(Self.day(due)), doneOn: today))
        #expect(next.due == .day(Self.day(expected)))
    }

    @Test func aCountIsCountedDownAndEndsTheSeries() throws {
        var due = TodoDue.day(Self.day("2026-12-01"))
        var repeating = try #require(TodoRepeat(parsing: "daily, 3 times"))
        var dues: [TodoDue] = [due]
        while let (next, carried) = repeating.next(after: due, completedOn: Self.day("2026-12-01"), in: Self.utc) {
            dues.append(next)
            (due, repeating) = (next, carried)
        }
        #expect(dues == ["2026-12-01", "2026-12-02", "2026-12-03"].map { .day(Self.day($0)) })
        #expect(repeating.words == "daily, 1 time")
    }

    @Test func anUntilEndsTheSeries() throws {
        #expect(Self.next("weekly, until 2026-12-10", due: .day(Self.day("2026-12-03")), doneOn: "2026-12-03")?.due == .day(Self.day("2026-12-10")))
        #expect(Self.next("weekly, until 2026-12-10", due: .day(Self.day("2026-12-10")), doneOn: "2026-12-10") == nil)
    }

    /// A weekly 9:00 in Berlin stays 9:00 across the change to winter time.
    @Test func aTimeOfDayStaysAcrossAClockChange() throws {
        let nineInSummer = try #require(ISO8601.date(from: "2026-10-19T07:00:00Z"))  // 9:00 CEST
        let next = try #require(Self.next("mon,thu", due: .moment(nineInSummer), doneOn: "2026-10-19", in: Self.berlin))
        #expect(next.due == .moment(try #require(ISO8601.date(from: "2026-10-22T07:00:00Z"))))
        let afterTheChange = try #require(Self.next("mon,thu", due: next.due, doneOn: "2026-10-22", in: Self.berlin))
        #expect(afterTheChange.due == .moment(try #require(ISO8601.date(from: "2026-10-26T08:00:00Z"))), "9:00 CET")
    }
}
