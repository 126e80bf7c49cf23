import Foundation
import Testing
import TodoCore
@testable import TodoICalendar

/// Times as apps write them (RFC 5545, 3.3.5): a TZID the system knows, one
/// only the object's VTIMEZONE defines (as Outlook names its zones), a
/// Mozilla-style TZID ending in a system zone's name, and floating times,
/// which are the user's own wall time.
struct TimesAsWrittenTests {
    static let berlinRules = [
        "BEGIN:VTIMEZONE", "TZID:Berlin Custom",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "DTSTART:19810329T020000",
        "TZNAME:CEST", "TZOFFSETTO:+0200", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "DTSTART:19961027T030000",
        "TZNAME:CET", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
    ]
    static let newYorkRules = [
        "BEGIN:VTIMEZONE", "TZID:Eastern Standard Time",
        "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500",
        "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
        "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
    ]

    static func due(_ line: String, zone: [String] = [], timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> TodoDue? {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0"] + zone + ["BEGIN:VTODO", "UID:x", line, "END:VTODO", "END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
        return try VTodo.fields(of: ICalendarComponent.read(Array(text.utf8)), timeZone: timeZone).due
    }

    /// `YYYYMMDDTHHMMSS` of `date`'s wall time in `zone`.
    static func stamp(_ date: Date, in calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// Times through ten years read in a VTIMEZONE's rules is the moment
    /// the system's zone of the same rules gives (the hour a clock skips or
    /// repeats aside: which of its two moments is meant, the RFC leaves open).
    @Test(arguments: [("Berlin Custom", "Europe/Berlin", berlinRules), ("Eastern Standard Time", "America/New_York", newYorkRules)])
    func aVTimezonesRulesGiveTheSystemZonesMoments(_ tzid: String, _ system: String, _ rules: [String]) throws {
        let zone = TimeZone(identifier: system)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var checked = 0
        var moment = try #require(ISO8601.date(from: "2020-01-01T00:00:00.000Z"))
        let end = try #require(ISO8601.date(from: "2030-01-01T00:00:00.000Z"))
        while moment < end {
            defer { moment = moment.addingTimeInterval(3_600 * 29 + 60 * 13) }
            let near = [-3_600.0, 0, 3_600].map { zone.secondsFromGMT(for: moment.addingTimeInterval($0)) }
            guard Set(near).count == 1 else { continue }
            let wall = Self.stamp(moment, in: calendar)
            let read = try Self.due("DUE;TZID=\(tzid):\(wall)", zone: rules)
            #expect(read == .moment(moment), "\(tzid) \(wall)")
            checked += 1
        }
        #expect(checked > 2_500)
    }

    @Test func aTzidIsTheSystemsZoneFirstThenTheObjectsThenFloating() throws {
        let berlinNoon = try #require(ISO8601.date(from: "2026-07-01T10:00:00.000Z"))
        // The system's zone, whatever a VTIMEZONE of the same name says.
        let wrongRules = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:16010101T000000",
                          "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "END:STANDARD", "END:VTIMEZONE"]
        #expect(try Self.due("DUE;TZID=Europe/Berlin:20260701T120000", zone: wrongRules) == .moment(berlinNoon))
        // Mozilla's TZIDs end in the zone's name.
        #expect(try Self.due("DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20260701T120000") == .moment(berlinNoon))
        // A name only the object defines.
        #expect(try Self.due("DUE;TZID=Berlin Custom:20260701T120000", zone: Self.berlinRules) == .moment(berlinNoon))
        // A name nobody defines: the user's wall time, as a floating time.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try Self.due("DUE;TZID=Atlantis:20260701T120000", timeZone: tokyo) == .moment(berlinNoon.addingTimeInterval(-7 * 3_600)))
    }

    /// A rule's UNTIL is UTC: the March change at 02:00 (+0100), which is
    /// 01:00Z, is the last the rule makes, and still made.
    @Test func aRulesUntilIsReadInUTC() throws {
        let rules = [
            "BEGIN:VTIMEZONE", "TZID:Custom",
            "BEGIN:DAYLIGHT", "DTSTART:19810329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20100328T010000Z", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:19961027T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE",
        ]
        #expect(try Self.due("DUE;TZID=Custom:20100415T120000", zone: rules) == .moment(try #require(ISO8601.date(from: "2010-04-15T10:00:00.000Z"))))
        #expect(try Self.due("DUE;TZID=Custom:20110415T120000", zone: rules) == .moment(try #require(ISO8601.date(from: "2011-04-15T11:00:00.000Z"))))
    }

    /// A floating time is the user's wall time: noon in Tokyo is 03:00 UTC.
    @Test func aFloatingTimeIsTheUsersWallTime() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try Self.due("DUE:20261201T120000", timeZone: tokyo) == .moment(try #require(ISO8601.date(from: "2026-12-01T03:00:00.000Z"))))
        #expect(try Self.due("DUE:20261201T120000Z", timeZone: tokyo) == .moment(try #require(ISO8601.date(from: "2026-12-01T12:00:00.000Z"))))
        // A whole day stays a day, in every zone.
        #expect(try Self.due("DUE;VALUE=DATE:20261201", timeZone: tokyo) == CalendarDay(year: 2026, month: 12, day: 1).map(TodoDue.day))
    }

    @Test func durationsAsRFC5545WritesThem() {
        #expect(VTodo.duration("P1W") == 604_800)
        #expect(VTodo.duration("-PT15M") == -900)
        #expect(VTodo.duration("P1DT2H3M4S") == 93_784)
        #expect(VTodo.duration("PT") == nil)
        #expect(VTodo.duration("P1H") == nil)
        #expect(VTodo.duration("20261201T000000Z") == nil)
    }
}
