import Foundation
import Testing
import TodoCore

/// Taskwarrior's named dates read here as the real `task` reads them
/// (`task calc`), so a Taskwarrior user's habits carry over (issue 45, item 4).
extension InterchangeToolTests {
    static let taskwarriorDates = ["sod", "eod", "sow", "eow", "sonw", "eonw", "som", "eom", "soq", "eoq", "soy", "eoy", "someday", "later"]

    @Test(.enabled(if: tool("task") != nil, "taskwarrior is not installed (apt-get install taskwarrior)"))
    func taskwarriorsNamedDatesNameTheDaysTaskwarriorGives() throws {
        let task = try taskwarrior(["rc.dateformat=Y-M-D"])
        let zone = try #require(TimeZone(identifier: Self.zone))
        for word in Self.taskwarriorDates {
            let answer = try task(["calc", word]).trimmingCharacters(in: .whitespacesAndNewlines)
            let theirs = try #require(CalendarDay(parsing: String(answer.prefix(10))), "task calc \(word): \(answer)")
            let ours = try DueDateGrammar.parse(word, now: Date(), in: zone).day(in: zone)
            #expect(ours == theirs, "\(word): task says \(answer)")
        }
    }

    @Test func datesAsPeopleSayThemAndANumericDateIsRefusedWithTheISOForm() throws {
        let added = try runTodo(["add", "call the bank", "--due", "end of month"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try runTodo(["add", "pay", "--due", "friday at 5pm"]).status == 0)
        let refused = try runTodo(["add", "party", "--due", "12/24"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'12/24' is not a due date") && refused.stderr.contains("2026-12-24"), "\(refused.stderr)")
        #expect(try contents().map(\.text) == ["call the bank", "pay"])
        let zone = try #require(TimeZone(identifier: Self.zone))
        #expect(try contents()[0].due == .day(Self.today.endOfMonth))
        let friday = try #require(try contents()[1].due)
        if case let .moment(date) = friday {
            #expect(CalendarDay(date, in: zone).weekday == 5)
        } else {
            Issue.record("friday at 5pm is a moment, got \(friday)")
        }
        // The next seven days, beside week.
        for filter in ["7d", "next 7 days"] {
            let listed = try runTodo(["list", "--due", filter])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("pay"))
        }
    }
}
