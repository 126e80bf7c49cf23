import Foundation
import Testing
import TodoCore

/// `DueDateGrammar` with "now" and the time zone pinned, so every answer is exact.
@Suite("Due date grammar")
struct DueDateGrammarTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// Monday 23 November 2026, 11:00 in Berlin.
    static let monday = moment("2026-11-23T10:00:00.000Z")

    static func moment(_ text: String) -> Date { ISO8601.date(from: text)! }
    static func day(_ text: String) -> TodoDue { .day(CalendarDay(parsing: text)!) }
    static func parse(_ text: String, at now: Date = monday, in zone: TimeZone = berlin) throws -> TodoDue {
        try DueDateGrammar.parse(text, now: now, in: zone)
    }

    @Test(arguments: [
        ("today", "2026-11-23"), ("tomorrow", "2026-11-24"), ("yesterday", "2026-11-22"),
        ("Today", "2026-11-23"), (" tomorrow ", "2026-11-24"),
        // The next such day after today: today's own weekday is a week away.
        ("mon", "2026-11-30"), ("monday", "2026-11-30"), ("MON", "2026-11-30"),
        ("tue", "2026-11-24"), ("tuesday", "2026-11-24"), ("wed", "2026-11-25"), ("thu", "2026-11-26"),
        ("fri", "2026-11-27"), ("friday", "2026-11-27"), ("sat", "2026-11-28"), ("sun", "2026-11-29"),
        ("sunday", "2026-11-29"),
        ("+0d", "2026-11-23"), ("+3d", "2026-11-26"), ("+10d", "2026-12-03"), ("+2w", "2026-12-07"),
        ("+1m", "2026-12-23"), ("+2m", "2027-01-23"), ("+1y", "2027-11-23"),
        ("eow", "2026-11-29"), ("eom", "2026-11-30"),
        // Taskwarrior's names (Taskwarrior's own answers: InterchangeToolTests), and in words.
        ("sod", "2026-11-23"), ("eod", "2026-11-23"), ("sow", "2026-11-23"), ("sonw", "2026-11-30"), ("eonw", "2026-12-06"),
        ("som", "2026-11-01"), ("soq", "2026-10-01"), ("eoq", "2026-12-31"), ("soy", "2026-01-01"), ("eoy", "2026-12-31"),
        ("someday", "9999-12-30"), ("later", "9999-12-30"),
        ("end of month", "2026-11-30"), ("End of Week", "2026-11-29"), ("start of month", "2026-11-01"),
        ("end of quarter", "2026-12-31"), ("start of year", "2026-01-01"), ("end of day", "2026-11-23"),
        ("in 2 weeks", "2026-12-07"),
        ("2026-12-01", "2026-12-01"), ("2024-02-29", "2024-02-29"),
    ])
    func wordsNameCalendarDays(text: String, expected: String) throws {
        #expect(try Self.parse(text) == Self.day(expected))
    }

    @Test(arguments: [
        // Month ends: a month later keeps the day, or takes the month's last day.
        ("2026-01-31T12:00:00.000Z", "+1m", "2026-02-28"),
        ("2028-01-31T12:00:00.000Z", "+1m", "2028-02-29"),
        ("2026-03-31T12:00:00.000Z", "+1m", "2026-04-30"),
        ("2026-12-31T12:00:00.000Z", "+1m", "2027-01-31"),
        ("2026-01-31T12:00:00.000Z", "eom", "2026-01-31"),
        ("2026-01-31T12:00:00.000Z", "tomorrow", "2026-02-01"),
        // Leap years: 2028 and 2000 have a 29 February, 2100 has not.
        ("2028-02-29T12:00:00.000Z", "+1y", "2029-02-28"),
        ("2028-02-29T12:00:00.000Z", "+4y", "2032-02-29"),
        ("2028-02-10T12:00:00.000Z", "eom", "2028-02-29"),
        ("2100-02-10T12:00:00.000Z", "eom", "2100-02-28"),
        ("2000-02-10T12:00:00.000Z", "eom", "2000-02-29"),
        ("2028-02-28T12:00:00.000Z", "tomorrow", "2028-02-29"),
        ("2027-02-28T12:00:00.000Z", "tomorrow", "2027-03-01"),
        // On a Sunday the week ends today, and "sun" is the next Sunday.
        ("2026-11-29T12:00:00.000Z", "eow", "2026-11-29"),
        ("2026-11-29T12:00:00.000Z", "sun", "2026-12-06"),
        ("2026-11-29T12:00:00.000Z", "mon", "2026-11-30"),
        // A week that crosses a year.
        ("2026-12-30T12:00:00.000Z", "eow", "2027-01-03"),
    ])
    func edgesOfMonthsYearsAndWeeks(now: String, text: String, expected: String) throws {
        #expect(try Self.parse(text, at: Self.moment(now)) == Self.day(expected))
    }

    /// Taskwarrior's `now` is this moment, to the second, in every time zone.
    @Test func nowIsThisMomentToTheSecond() throws {
        let now = Self.moment("2026-11-23T10:00:07.250Z")
        for zone in [Self.berlin, Self.newYork] {
            #expect(try Self.parse("now", at: now, in: zone) == .moment(Self.moment("2026-11-23T10:00:07.000Z")))
            #expect(try Self.parse(" NOW ", at: now, in: zone) == .moment(Self.moment("2026-11-23T10:00:07.000Z")))
        }
    }

    @Test func todayIsReckonedInTheTimeZone() throws {
        // 23:30 UTC is already Tuesday in Berlin, still Monday evening in New York.
        let late = Self.moment("2026-11-23T23:30:00.000Z")
        #expect(try Self.parse("today", at: late, in: Self.berlin) == Self.day("2026-11-24"))
        #expect(try Self.parse("today", at: late, in: Self.newYork) == Self.day("2026-11-23"))
        #expect(try Self.parse("tue", at: late, in: Self.berlin) == Self.day("2026-12-01"))
        #expect(try Self.parse("tue", at: late, in: Self.newYork) == Self.day("2026-11-24"))
    }

    @Test func aDateStaysThatDateInEveryTimeZone() throws {
        for zone in [Self.berlin, Self.newYork, TimeZone(identifier: "Pacific/Kiritimati")!, TimeZone(identifier: "UTC")!] {
            let due = try Self.parse("2026-12-01", in: zone)
            #expect(due == Self.day("2026-12-01"))
            #expect(due.text == "2026-12-01")
            #expect(due.day(in: Self.newYork) == CalendarDay(parsing: "2026-12-01"))
        }
    }

    @Test(arguments: [
        ("2026-12-01T14:30", "2026-12-01T13:30:00.000Z"),
        ("2026-12-01t14:30", "2026-12-01T13:30:00.000Z"),
        ("2026-12-01T14:30:15", "2026-12-01T13:30:15.000Z"),
        ("2026-07-01T14:30", "2026-07-01T12:30:00.000Z"),
        ("2026-12-01T00:00", "2026-11-30T23:00:00.000Z"),
        // Clocks go forward at 02:00 on 29 March 2026: 02:30 does not exist and
        // is read as the same time after the change, 03:30 summer time.
        ("2026-03-29T01:30", "2026-03-29T00:30:00.000Z"),
        ("2026-03-29T02:30", "2026-03-29T01:30:00.000Z"),
        ("2026-03-29T03:30", "2026-03-29T01:30:00.000Z"),
        // Clocks go back at 03:00 on 25 October 2026: 02:30 happens twice, and is the first.
        ("2026-10-25T01:30", "2026-10-24T23:30:00.000Z"),
        ("2026-10-25T02:30", "2026-10-25T00:30:00.000Z"),
        ("2026-10-25T03:30", "2026-10-25T02:30:00.000Z"),
        // A time with its zone, as JSON shows it, is that moment.
        ("2026-12-01T13:30:00.000Z", "2026-12-01T13:30:00.000Z"),
        ("2026-12-01T14:30:00+01:00", "2026-12-01T13:30:00.000Z"),
    ])
    func aDateAndTimeIsLocalToTheTimeZone(text: String, expected: String) throws {
        #expect(try Self.parse(text) == .moment(Self.moment(expected)))
    }

    @Test func aLocalTimeAcrossTheClockChangesInNewYork() throws {
        // 8 March 2026: 02:00 becomes 03:00; 1 November 2026: 02:00 becomes 01:00.
        #expect(try Self.parse("2026-03-08T02:30", in: Self.newYork) == .moment(Self.moment("2026-03-08T07:30:00.000Z")))
        #expect(try Self.parse("2026-11-01T01:30", in: Self.newYork) == .moment(Self.moment("2026-11-01T05:30:00.000Z")))
        #expect(try Self.parse("2026-11-01T02:30", in: Self.newYork) == .moment(Self.moment("2026-11-01T07:30:00.000Z")))
    }

    @Test(arguments: [
        "", " ", "sometime", "mo", "3d", "+3", "+d", "+3x", "+-3d", "--3d", "+1.5d", "+99999d", "+ad",
        "2026-02-30", "2026-13-01", "26-12-01", "2026-12-1", "2026-12-01T25:00", "2026-12-01T14:60",
        "2026-12-01T14", "2026-12-01T14:30:99", "2026-12-01 25:00", "+٣d", "tomorrow 25:00", "fri 5",
        "dec 32", "in 3 parsecs", "in days", "next decade", "3 ago", "tomorrow 13pm", "today 9:5",
    ])
    func anythingElseIsRefusedSayingWhatToType(text: String) {
        #expect(throws: TodoFieldError.badDue(text)) { try Self.parse(text) }
        #expect(TodoFieldError.badDue(text).description.contains("2026-12-01T14:30"))
    }

    @Test(arguments: [
        ("in 3 days", "2026-11-26"), ("in a week", "2026-11-30"), ("in 2 weeks", "2026-12-07"), ("in 1 month", "2026-12-23"),
        ("in 2 years", "2028-11-23"), ("In  3  Days", "2026-11-26"),
        // Monday 23 November: next week starts on the 30th.
        ("next week", "2026-11-30"), ("next month", "2026-12-01"), ("next year", "2027-01-01"), ("next fri", "2026-11-27"),
        ("next monday", "2026-11-30"),
        ("dec 24", "2026-12-24"), ("24 dec", "2026-12-24"), ("December 24th", "2026-12-24"), ("1st jan", "2027-01-01"),
        ("nov 23", "2026-11-23"), ("nov 22", "2027-11-22"), ("feb 29", "2028-02-29"),
        ("-1d", "2026-11-22"), ("-2w", "2026-11-09"), ("1d ago", "2026-11-22"), ("3 days ago", "2026-11-20"),
        ("a week ago", "2026-11-16"), ("2m ago", "2026-09-23"),
    ])
    func phrasesNameCalendarDays(text: String, expected: String) throws {
        #expect(try Self.parse(text) == Self.day(expected))
    }

    @Test(arguments: [
        // Berlin is an hour ahead of UTC in winter.
        ("tomorrow 5pm", "2026-11-24T16:00:00.000Z"), ("fri 09:30", "2026-11-27T08:30:00.000Z"),
        ("2026-12-01 14:30", "2026-12-01T13:30:00.000Z"), ("dec 24 18:00", "2026-12-24T17:00:00.000Z"),
        ("today noon", "2026-11-23T11:00:00.000Z"), ("tomorrow 12am", "2026-11-23T23:00:00.000Z"),
        ("tomorrow 12pm", "2026-11-24T11:00:00.000Z"), ("next week 9:30am", "2026-11-30T08:30:00.000Z"),
        ("in 3 days 7:05pm", "2026-11-26T18:05:00.000Z"), ("tomorrow midnight", "2026-11-23T23:00:00.000Z"),
    ])
    func aDayAndATimeOfDayAreAMomentOnTheLocalClock(text: String, expected: String) throws {
        #expect(try Self.parse(text) == .moment(Self.moment(expected)))
    }

    @Test func aMistypedWordIsAnsweredWithTheNearestForm() {
        for (typed, meant) in [("next tuseday", "next tuesday"), ("tomorow", "tomorrow"), ("in 3 dyas", "in 3 days"),
                               ("decmber 24", "december 24"), ("tomorrow noone", "tomorrow noon")] {
            #expect(throws: TodoFieldError.badDue(typed, suggestion: meant)) { try Self.parse(typed) }
            #expect(TodoFieldError.badDue(typed, suggestion: meant).description == "'\(typed)' is not a due date: did you mean '\(meant)'?")
        }
        // The first word of a date of several words, given alone (unquoted in a shell).
        // (The command line adds how a shell wants it: BadInputTests.)
        for word in ["next", "dec", "In"] {
            #expect(TodoFieldError.badDue(word).isPartOfADate)
            #expect(TodoFieldError.badDue(word).description == "'\(word)' is not a due date on its own: give the whole date, like next week or dec 24")
        }
        #expect(!TodoFieldError.badDue("soonish").isPartOfADate && !TodoFieldError.badDue("next", suggestion: "next week").isPartOfADate)
    }

    /// Every date Docs/command-line.md shows reads as the same calendar day wherever
    /// the person is: it depends on the local date alone, never on the zone.
    @Test func theGuidesDatesNameTheSameDayInEveryTimeZone() throws {
        let texts = ["today", "tomorrow", "fri", "next fri", "next week", "next month", "in 3 days", "dec 24", "24 dec",
                     "+2w", "+1m", "eow", "eom", "1d ago", "-1d", "2026-12-01"]
        let zones = TimeZone.knownTimeZoneIdentifiers.compactMap(TimeZone.init(identifier:))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let zone = zones.randomElement(using: &random)!
            // Any moment from 2000 to 2099.
            let now = Date(timeIntervalSince1970: Double.random(in: 946_684_800..<4_102_444_800, using: &random))
            let local = CalendarDay(now, in: zone)
            // The same local date, read in UTC at noon.
            let reference = Date(timeIntervalSince1970: Double(local.daysSince1970 * 86_400 + 43_200))
            for text in texts {
                let here = try DueDateGrammar.parse(text, now: now, in: zone)
                let there = try DueDateGrammar.parse(text, now: reference, in: TimeZone(identifier: "UTC")!)
                #expect(here == there, "\(text) at \(now) in \(zone.identifier)")
            }
        }
    }

    @Test func filtersReadOverdueTodayTomorrowWeekAndDates() throws {
        func filter(_ text: String) throws -> DueFilter { try DueFilter(parsing: text, now: Self.monday, in: Self.berlin) }
        let days = { (first: String, last: String) in CalendarDay(parsing: first)!...CalendarDay(parsing: last)! }
        #expect(try filter("overdue") == .overdue(now: Self.monday, timeZone: Self.berlin))
        #expect(try filter("today") == .within(days("2026-11-23", "2026-11-23"), timeZone: Self.berlin))
        #expect(try filter("tomorrow") == .within(days("2026-11-24", "2026-11-24"), timeZone: Self.berlin))
        #expect(try filter("week") == .within(days("2026-11-23", "2026-11-29"), timeZone: Self.berlin))
        #expect(try filter("fri") == .within(days("2026-11-27", "2026-11-27"), timeZone: Self.berlin))
        #expect(try filter("2026-12-01T14:30") == .within(days("2026-12-01", "2026-12-01"), timeZone: Self.berlin))
        #expect(throws: TodoFieldError.badDue("soon")) { try filter("soon") }
    }

    @Test func overdueIsADayBeforeTodayOrAMomentBeforeNow() throws {
        let overdue = try DueFilter(parsing: "overdue", now: Self.monday, in: Self.berlin)
        #expect(overdue.includes(Self.day("2026-11-22")))
        #expect(!overdue.includes(Self.day("2026-11-23")))
        #expect(overdue.includes(.moment(Self.moment("2026-11-23T09:59:59.999Z"))))
        #expect(!overdue.includes(.moment(Self.moment("2026-11-23T10:00:00.000Z"))))
        #expect(!overdue.includes(nil))
        let today = try DueFilter(parsing: "today", now: Self.monday, in: Self.berlin)
        // A moment is today when it falls on today in the time zone: 23:30 UTC
        // on the 22nd is 00:30 on the 23rd in Berlin.
        #expect(today.includes(.moment(Self.moment("2026-11-22T23:30:00.000Z"))))
        #expect(!today.includes(.moment(Self.moment("2026-11-23T23:30:00.000Z"))))
        #expect(today.includes(Self.day("2026-11-23")))
        #expect(!today.includes(Self.day("2026-11-24")))
    }

    @Test func aDayAtATimeIsThatTimeAndANumericDateIsNeverGuessed() throws {
        #expect(try Self.parse("friday at 5pm") == Self.parse("friday 5pm"))
        #expect(try Self.parse("tomorrow at 09:30") == .moment(Self.moment("2026-11-24T08:30:00.000Z")))
        for text in ["12/24", "24.12.", "12/24/2026", "24.12.2026"] {
            #expect(throws: TodoFieldError.self) { try Self.parse(text) }
            let message = String(describing: TodoFieldError.badDue(text))
            #expect(message.contains("is not guessed") && message.contains("2026-12-24"), "\(message)")
        }
        #expect(!DueDateGrammar.isNumericDate("2026-12-24") && !DueDateGrammar.isNumericDate("3.5kg"))
    }

    @Test func theComingDaysAreTodayThroughThatManyDaysAhead() throws {
        for text in ["7d", "next 7 days", "7 days"] {
            let filter = try DueFilter(parsing: text, now: Self.monday, in: Self.berlin)
            #expect(filter == .within(CalendarDay(parsing: "2026-11-23")!...CalendarDay(parsing: "2026-11-30")!, timeZone: Self.berlin), "\(text)")
        }
    }
}
