import Foundation
import Testing
import TodoCore

/// The rule engine on RFC 5545's own examples (3.8.5.3), those of the rules
/// it takes: every one gives the days the RFC lists.
@Suite("Repeat rules: RFC 5545's examples")
struct RecurrenceRuleTests {
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func day(_ text: String) -> CalendarDay {
        let digits = text.replacingOccurrences(of: "-", with: "")
        return CalendarDay(parsing: "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))")!
    }

    struct Example: Sendable, CustomTestStringConvertible {
        var rule: String
        var start: String
        /// The days the RFC lists (the first ones, for a rule without end).
        var days: [String]
        var excluding: [String] = []
        var testDescription: String { rule }
    }

    static let examples: [Example] = [
        Example(rule: "FREQ=DAILY;COUNT=10", start: "19970902", days: (2...11).map { "199709\($0 < 10 ? "0" : "")\($0)" }),
        Example(rule: "FREQ=DAILY;INTERVAL=2", start: "19970902", days: ["19970902", "19970904", "19970906", "19970908"]),
        Example(rule: "FREQ=DAILY;INTERVAL=10;COUNT=5", start: "19970902", days: ["19970902", "19970912", "19970922", "19971002", "19971012"]),
        Example(rule: "FREQ=WEEKLY;COUNT=10", start: "19970902", days: [
            "19970902", "19970909", "19970916", "19970923", "19970930", "19971007", "19971014", "19971021", "19971028", "19971104",
        ]),
        Example(rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU", start: "19970902", days: ["19970902", "19970916", "19970930", "19971014"]),
        Example(rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", start: "19970902", days: [
            "19970902", "19970904", "19970909", "19970911", "19970916", "19970918", "19970923", "19970925", "19970930", "19971002",
        ]),
        Example(rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", start: "19970902", days: [
            "19970902", "19970904", "19970909", "19970911", "19970916", "19970918", "19970923", "19970925", "19970930", "19971002",
        ]),
        Example(rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", start: "19970901", days: [
            "19970901", "19970903", "19970905", "19970915", "19970917", "19970919", "19970929", "19971001", "19971003",
            "19971013", "19971015", "19971017", "19971027", "19971029", "19971031", "19971110", "19971112", "19971114",
            "19971124", "19971126", "19971128", "19971208", "19971210", "19971212", "19971222",
        ]),
        Example(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", start: "19970902", days: [
            "19970902", "19970904", "19970916", "19970918", "19970930", "19971002", "19971014", "19971016",
        ]),
        Example(rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", start: "19970905", days: [
            "19970905", "19971003", "19971107", "19971205", "19980102", "19980206", "19980306", "19980403", "19980501", "19980605",
        ]),
        Example(rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR", start: "19970905", days: ["19970905", "19971003", "19971107", "19971205"]),
        Example(rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", start: "19970907", days: [
            "19970907", "19970928", "19971102", "19971130", "19980104", "19980125", "19980301", "19980329", "19980503", "19980531",
        ]),
        Example(rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", start: "19970922", days: [
            "19970922", "19971020", "19971117", "19971222", "19980119", "19980216",
        ]),
        Example(rule: "FREQ=MONTHLY;BYMONTHDAY=-3", start: "19970928", days: ["19970928", "19971029", "19971128", "19971229", "19980129", "19980226"]),
        Example(rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", start: "19970902", days: [
            "19970902", "19970915", "19971002", "19971015", "19971102", "19971115", "19971202", "19971215", "19980102", "19980115",
        ]),
        Example(rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", start: "19970930", days: [
            "19970930", "19971001", "19971031", "19971101", "19971130", "19971201", "19971231", "19980101", "19980131", "19980201",
        ]),
        Example(rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", start: "19970910", days: [
            "19970910", "19970911", "19970912", "19970913", "19970914", "19970915", "19990310", "19990311", "19990312", "19990313",
        ]),
        Example(rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", start: "19970902", days: [
            "19970902", "19970909", "19970916", "19970923", "19970930", "19971104", "19971111", "19971118", "19971125",
            "19980106", "19980113", "19980120", "19980127", "19980303",
        ]),
        Example(rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", start: "19970610", days: [
            "19970610", "19970710", "19980610", "19980710", "19990610", "19990710", "20000610", "20000710", "20010610", "20010710",
        ]),
        Example(rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", start: "19970310", days: [
            "19970310", "19990110", "19990210", "19990310", "20010110", "20010210", "20010310", "20030110", "20030210", "20030310",
        ]),
        Example(rule: "FREQ=YEARLY;BYDAY=20MO", start: "19970519", days: ["19970519", "19980518", "19990517"]),
        Example(rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", start: "19970313", days: [
            "19970313", "19970320", "19970327", "19980305", "19980312", "19980319", "19980326", "19990304", "19990311", "19990318", "19990325",
        ]),
        Example(rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", start: "19970605", days: [
            "19970605", "19970612", "19970619", "19970626", "19970703", "19970710", "19970717", "19970724", "19970731",
            "19970807", "19970814", "19970821", "19970828", "19980604",
        ]),
        Example(
            rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", start: "19970902",
            days: ["19980213", "19980313", "19981113", "19990813", "20001013"], excluding: ["19970902"]
        ),
        Example(rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", start: "19970913", days: [
            "19970913", "19971011", "19971108", "19971213", "19980110", "19980207", "19980307", "19980411", "19980509", "19980613",
        ]),
        Example(rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", start: "19961105", days: [
            "19961105", "20001107", "20041102",
        ]),
        Example(rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", start: "19970904", days: ["19970904", "19971007", "19971106"]),
        Example(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", start: "19970929", days: [
            "19970929", "19971030", "19971127", "19971230", "19980129", "19980226", "19980330",
        ]),
        Example(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", start: "19970805", days: ["19970805", "19970810", "19970819", "19970824"]),
        Example(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", start: "19970805", days: ["19970805", "19970817", "19970819", "19970831"]),
        Example(rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", start: "20070115", days: ["20070115", "20070130", "20070215", "20070315", "20070330"]),
    ]

    @Test(arguments: examples)
    func theRFCsExamples(_ example: Example) throws {
        let rule = try #require(RecurrenceRule(rrule: example.rule))
        let excluded = Set(example.excluding.map(Self.day))
        let days = rule.days(from: Self.day(example.start), in: Self.newYork).lazy.filter { !excluded.contains($0) }.prefix(example.days.count)
        #expect(Array(days) == example.days.map(Self.day))
    }

    /// The RFC's longer lists, by their count and their ends.
    @Test func dailyUntilAndEveryDayOfJanuaryForThreeYears() throws {
        let daily = Array(try #require(RecurrenceRule(rrule: "FREQ=DAILY;UNTIL=19971224T000000Z")).days(from: Self.day("19970902"), in: Self.newYork))
        #expect(daily.count == 113 && daily.last == Self.day("19971223"))
        for text in ["FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1"] {
            let january = Array(try #require(RecurrenceRule(rrule: text)).days(from: Self.day("19980101"), in: Self.newYork))
            #expect(january.count == 93 && january.allSatisfy { $0.month == 1 } && january.last == Self.day("20000131"), "\(text)")
        }
    }

    @Test(arguments: [
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", "FREQ=YEARLY;UNTIL=20261231;BYMONTH=11;BYMONTHDAY=-1",
        "FREQ=DAILY;UNTIL=20261231T080000Z;WKST=SU", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=YEARLY;UNTIL=20261231T080000",
    ])
    func aRuleReadsBackAsItsOwnText(_ text: String) throws {
        let rule = try #require(RecurrenceRule(rrule: text))
        #expect(RecurrenceRule(rrule: rule.rrule) == rule)
        #expect(rule.rrule == text)
    }

    @Test(arguments: [
        "", "FREQ=HOURLY", "FREQ=DAILY;BYHOUR=9", "FREQ=YEARLY;BYWEEKNO=20", "FREQ=DAILY;COUNT=3;UNTIL=20261231", "FREQ=DAILY;FREQ=WEEKLY",
        "FREQ=WEEKLY;BYDAY=2MO", "FREQ=MONTHLY;BYMONTHDAY=32", "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=DAILY;INTERVAL=0", "INTERVAL=2",
        "FREQ=DAILY;COUNT=-1", "FREQ=MONTHLY;BYDAY=XX", "FREQ=DAILY;UNTIL=2026-12-31", "FREQ=YEARLY;BYMONTH=13", "FREQ=DAILY;junk",
    ])
    func aRuleBeyondTheEngineOrBrokenIsNotOne(_ text: String) {
        #expect(RecurrenceRule(rrule: text) == nil)
    }

    /// A list longer than any list of distinct values is refused unread.
    @Test func aHostileListIsRefused() {
        #expect(RecurrenceRule(rrule: "FREQ=MONTHLY;BYSETPOS=" + Array(repeating: "1", count: 733).joined(separator: ",")) == nil)
        #expect(RecurrenceRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=" + Array(repeating: "1", count: 732).joined(separator: ",")) != nil)
    }

    /// BYSETPOS in a weekly rule counts the whole week, the days before the
    /// start included: the second of Monday, Wednesday and Friday is the
    /// Wednesday, from a Wednesday start too.
    @Test func aWeeklySetPositionCountsTheWholeWeek() throws {
        let rule = try #require(RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=2"))
        #expect(Array(rule.days(from: Self.day("20261202")).prefix(3)) == ["20261202", "20261209", "20261216"].map(Self.day))
    }

    /// 30 February never comes: the series is empty, and reading it ends.
    @Test func aRuleThatNamesNoDayEnds() throws {
        let rule = try #require(RecurrenceRule(rrule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"))
        #expect(rule.days(from: Self.day("20260101")).first(where: { _ in true }) == nil)
        let yearly = try #require(RecurrenceRule(rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"))
        #expect(yearly.day(after: Self.day("20280229"), from: Self.day("20280229")) == Self.day("20320229"))
    }
}
