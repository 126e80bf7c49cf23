import Foundation
import Testing
import TodoCore

/// Where a repeating todo goes next: the first occurrence due today or
/// later (or the next in a strict chain), a month's last day kept.
@Suite("Repeating todos")
struct RepeatTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }

    static func next(_ repeating: String, due: String, doneOn today: String) -> String {
        TodoRepeat(parsing: repeating)!.next(after: .day(day(due)), completedOn: day(today), in: utc)!.due.text
    }

    @Test(arguments: [
        // Done weeks late: the next occurrence is not overdue too.
        ("daily", "2026-11-01", "2026-11-25", "2026-11-25"),
        ("weekly", "2026-11-02", "2026-11-25", "2026-11-30"),
        ("3d", "2026-11-01", "2026-11-25", "2026-11-25"),
        // Done on time or early: one period on.
        ("daily", "2026-11-25", "2026-11-25", "2026-11-26"),
        ("weekly", "2026-11-30", "2026-11-25", "2026-12-07"),
        // Strict: every occurrence of the chain.
        ("daily!", "2026-11-01", "2026-11-25", "2026-11-02"),
        ("weekly!", "2026-11-02", "2026-11-25", "2026-11-09"),
        // A month's last day stays the month's last day.
        ("monthly", "2027-01-31", "2027-01-31", "2027-02-28"),
        ("monthly", "2027-02-28", "2027-02-28", "2027-03-31"),
        ("monthly", "2027-04-30", "2027-04-30", "2027-05-31"),
        ("monthly", "2027-01-15", "2027-01-15", "2027-02-15"),
        ("monthly", "2027-01-30", "2027-01-30", "2027-02-28"),
        ("yearly", "2028-02-29", "2028-02-29", "2029-02-28"),
        // Late by months, from the 31st: the month's last day it lands in.
        ("monthly", "2027-01-31", "2027-04-02", "2027-04-30"),
    ])
    func theNextOccurrence(repeating: String, due: String, today: String, expected: String) {
        #expect(Self.next(repeating, due: due, doneOn: today) == expected)
    }

    @Test func aStrictRepeatReadsAndWritesWithItsMark() throws {
        let strict = try #require(TodoRepeat(parsing: "Weekly!"))
        #expect(strict.strict && strict.description == "weekly!")
        #expect(TodoRepeat(parsing: "3d!")?.description == "3d!")
        #expect(TodoRepeat(parsing: "weekly")?.strict == false)
        #expect(TodoRepeat(parsing: "!") == nil)
    }

    /// Completed on two machines on different days, one next todo: its id
    /// does not depend on its due date.
    @Test func twoCompletionsOnDifferentDaysMakeTheSameNextTodo() throws {
        let todo = TodoItem(
            id: UUID(), text: "water plants", createdAt: Date(timeIntervalSince1970: 0),
            due: .day(Self.day("2026-11-01")), recurrence: TodoRepeat(parsing: "daily")
        )
        let monday = Self.day("2026-11-23").start(in: Self.utc)
        let wednesday = Self.day("2026-11-25").start(in: Self.utc)
        let first = try #require(todo.nextOccurrence(at: monday, in: Self.utc))
        let second = try #require(todo.nextOccurrence(at: wednesday, in: Self.utc))
        #expect(first.id == second.id)
        #expect(first.due == .day(Self.day("2026-11-23")) && second.due == .day(Self.day("2026-11-25")))
    }

    /// `until` ends a repeat: no occurrence due after it. The wait and
    /// scheduled dates move as many days as the due date; the project stays.
    @Test func untilEndsARepeatAndWaitAndScheduledMoveWithTheDue() throws {
        let todo = TodoItem(
            id: UUID(), text: "water plants", createdAt: Date(timeIntervalSince1970: 0),
            due: .day(Self.day("2026-11-23")), recurrence: TodoRepeat(parsing: "weekly"), project: "home.garden",
            wait: .day(Self.day("2026-11-21")), scheduled: .moment(Self.day("2026-11-22").start(in: Self.utc) + 9 * 3_600),
            until: .day(Self.day("2026-12-07"))
        )
        let monday = Self.day("2026-11-23").start(in: Self.utc)
        let next = try #require(todo.nextOccurrence(at: monday, in: Self.utc))
        #expect(next.due == .day(Self.day("2026-11-30")))
        #expect(next.wait == .day(Self.day("2026-11-28")))
        #expect(next.scheduled == .moment(Self.day("2026-11-29").start(in: Self.utc) + 9 * 3_600))
        #expect(next.project == "home.garden" && next.until == todo.until)
        let last = try #require(next.nextOccurrence(at: monday + 7 * 86_400, in: Self.utc))
        #expect(last.due == .day(Self.day("2026-12-07")))
        #expect(last.nextOccurrence(at: monday + 14 * 86_400, in: Self.utc) == nil, "the next would be due after until")

        // An until with a time ends the repeat at that moment.
        var timed = todo
        timed.due = .moment(Self.day("2026-11-23").start(in: Self.utc) + 18 * 3_600)
        timed.until = .moment(Self.day("2026-11-30").start(in: Self.utc) + 17 * 3_600)
        #expect(timed.nextOccurrence(at: monday, in: Self.utc) == nil, "due at 18:00, after until at 17:00")
        timed.until = .moment(Self.day("2026-11-30").start(in: Self.utc) + 18 * 3_600)
        #expect(timed.nextOccurrence(at: monday, in: Self.utc) != nil)
    }
}
