import Foundation
import TodoCore

/// The time zones the TZIDs of one iCalendar object name (RFC 5545, 3.2.19):
/// a zone this system knows by that name first (its rules cover every year),
/// a zone named at the end of a longer TZID next (Mozilla's
/// `/mozilla.org/20050126_1/Europe/Berlin`), else the object's own
/// VTIMEZONE of that TZID, as Outlook's `W. Europe Standard Time` comes.
public struct ICalendarZones: Sendable {
    private var definitions: [String: ZoneDefinition] = [:]

    /// No VTIMEZONE: only the system's zones.
    public static let system = ICalendarZones()

    private init() {}

    /// The VTIMEZONEs `calendar` carries.
    public init(_ calendar: ICalendarComponent) {
        for zone in calendar.components where zone.name == "VTIMEZONE" {
            guard let id = zone.property("TZID")?.value.trimmedASCIIWhitespace, !id.isEmpty else { continue }
            definitions[id] = ZoneDefinition(zone)
        }
    }

    /// The moment the wall time `local` is in the zone `tzid`; nil if neither
    /// the system nor the object knows that zone.
    public func date(_ local: DateComponents, tzid: String) -> Date? {
        if let zone = Self.systemZone(tzid) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.date(from: local)
        }
        guard let definition = definitions[tzid], let wall = WallTime(local) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(wall.seconds - definition.offset(at: wall)))
    }

    /// The system's zone named `tzid`, or named by its last two or three
    /// path segments.
    static func systemZone(_ tzid: String) -> TimeZone? {
        if let zone = TimeZone(identifier: tzid) { return zone }
        let parts = tzid.split(separator: "/")
        guard parts.count > 2 else { return nil }
        for count in [3, 2] where parts.count > count {
            if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }
}

/// A wall-clock time counted in seconds as if it were UTC: what a VTIMEZONE's
/// onsets and a TZID'd value are compared in.
struct WallTime: Comparable {
    var seconds: Int

    init(seconds: Int) { self.seconds = seconds }

    init?(_ parts: DateComponents) {
        guard let year = parts.year, let month = parts.month, let day = parts.day,
              let date = CalendarDay(year: year, month: month, day: day) else { return nil }
        seconds = date.daysSince1970 * 86_400 + (parts.hour ?? 0) * 3_600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
    }

    /// `YYYYMMDDTHHMMSS` (no zone), as a VTIMEZONE's DTSTART and RDATE are written.
    init?(text: String) {
        let bytes = Array(text.trimmedASCIIWhitespace.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            return bytes[range].reduce(0 as Int?) { value, byte in
                guard let value, byte >= 0x30, byte <= 0x39 else { return nil }
                return value * 10 + Int(byte - 0x30)
            }
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { return nil }
        var parts = DateComponents(year: year, month: month, day: day)
        if bytes.count >= 15, bytes[8] == UInt8(ascii: "T") {
            parts.hour = number(9..<11)
            parts.minute = number(11..<13)
            parts.second = number(13..<15)
        }
        self.init(parts)
    }

    /// The calendar day this wall time falls on.
    var day: CalendarDay { CalendarDay(daysSince1970: seconds.floorDivided(by: 86_400)) }

    static func < (left: WallTime, right: WallTime) -> Bool { left.seconds < right.seconds }
}

/// One VTIMEZONE: its STANDARD and DAYLIGHT observances, each an offset
/// that starts at its DTSTART and again at each onset of its yearly RRULE
/// (`FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`, as every app writes them) or RDATE.
struct ZoneDefinition: Sendable {
    struct Observance: Sendable {
        var start: WallTime.Seconds
        var offsetFrom: Int
        var offsetTo: Int
        /// A yearly rule's month and weekday (1 Sunday … 7 Saturday) with its
        /// ordinal (-1 the last), or day of the month.
        var month: Int?
        var weekday: (ordinal: Int, day: Int)?
        var monthDay: Int?
        var until: WallTime.Seconds?
        var dates: [WallTime.Seconds] = []
    }

    var observances: [Observance] = []

    init(_ zone: ICalendarComponent) {
        for part in zone.components where part.name == "STANDARD" || part.name == "DAYLIGHT" {
            guard let start = part.property("DTSTART").flatMap({ WallTime(text: $0.value) }),
                  let to = part.property("TZOFFSETTO").flatMap({ Self.offset($0.value) }) else { continue }
            var observance = Observance(
                start: start.seconds, offsetFrom: part.property("TZOFFSETFROM").flatMap { Self.offset($0.value) } ?? to, offsetTo: to
            )
            if let rule = part.property("RRULE")?.value {
                var parts: [String: String] = [:]
                for item in rule.split(separator: ";") {
                    let pair = item.split(separator: "=", maxSplits: 1)
                    if pair.count == 2 { parts[pair[0].uppercased()] = String(pair[1]) }
                }
                if parts["FREQ"]?.uppercased() == "YEARLY" {
                    observance.month = parts["BYMONTH"].flatMap { Int($0) } ?? Self.month(of: start)
                    observance.weekday = parts["BYDAY"].flatMap(Self.weekday)
                    observance.monthDay = parts["BYMONTHDAY"].flatMap { Int($0) }
                    if observance.weekday == nil, observance.monthDay == nil {
                        observance.monthDay = start.day.day
                    }
                    observance.until = parts["UNTIL"].flatMap { WallTime(text: $0.replacingOccurrences(of: "Z", with: "")) }?.seconds
                }
            }
            for line in part.properties("RDATE") {
                observance.dates += line.value.split(separator: ",").compactMap { WallTime(text: String($0))?.seconds }
            }
            observances.append(observance)
        }
    }

    /// The UTC offset in seconds at the wall time `wall`: that of the
    /// observance whose latest onset is the latest not after it.
    func offset(at wall: WallTime) -> Int {
        var best: (onset: Int, offset: Int)?
        for observance in observances {
            guard let onset = latestOnset(observance, notAfter: wall) else { continue }
            if best.map({ onset > $0.onset }) ?? true { best = (onset, observance.offsetTo) }
        }
        if let best { return best.offset }
        // Before every onset: the offset the earliest observance left.
        return observances.min { $0.start < $1.start }?.offsetFrom ?? 0
    }

    private func latestOnset(_ observance: Observance, notAfter wall: WallTime) -> Int? {
        var candidates = observance.dates.filter { $0 <= wall.seconds }
        if observance.start <= wall.seconds { candidates.append(observance.start) }
        if let month = observance.month {
            let time = observance.start.floorModulo(86_400)
            // UNTIL is UTC; an onset is the wall time of the offset it ends.
            let limit = min(wall.seconds, observance.until.map { $0 + observance.offsetFrom } ?? .max)
            let year = WallTime(seconds: limit).day.year
            for candidateYear in [year, year - 1] {
                guard let day = Self.day(in: candidateYear, month: month, observance) else { continue }
                let onset = day * 86_400 + time
                if onset <= limit, onset >= observance.start { candidates.append(onset); break }
            }
        }
        return candidates.max()
    }

    /// The day (days since 1970) a yearly rule falls on in `year`.
    private static func day(in year: Int, month: Int, _ observance: Observance) -> Int? {
        guard let firstDay = CalendarDay(year: year, month: month, day: 1) else { return nil }
        let first = firstDay.daysSince1970
        let next = first + CalendarDay.daysIn(month: month, year: year)
        if let (ordinal, weekday) = observance.weekday {
            // `weekday` is iCalendar's 1 Sunday … 7 Saturday; CalendarDay's is ISO's 1 Monday … 7 Sunday.
            func weekdayOf(_ day: Int) -> Int { CalendarDay(daysSince1970: day).weekday % 7 + 1 }
            if ordinal > 0 {
                let firstMatch = first + (weekday - weekdayOf(first)).floorModulo(7)
                let day = firstMatch + (ordinal - 1) * 7
                return day < next ? day : nil
            }
            let last = next - 1
            let lastMatch = last - (weekdayOf(last) - weekday).floorModulo(7)
            let day = lastMatch + (ordinal + 1) * 7
            return day >= first ? day : nil
        }
        guard let monthDay = observance.monthDay else { return nil }
        let day = monthDay > 0 ? first + monthDay - 1 : next + monthDay
        return day >= first && day < next ? day : nil
    }

    /// `+0100`, `-0530`, `+013000`: seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        let bytes = Array(text.trimmedASCIIWhitespace.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - 0x30) }
        let seconds = (digits[0] * 10 + digits[1]) * 3_600 + (digits[2] * 10 + digits[3]) * 60 + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// `-1SU`, `2MO`, `SU` (every: read as the first).
    static func weekday(_ text: String) -> (ordinal: Int, day: Int)? {
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        let word = text.split(separator: ",").first.map(String.init) ?? text
        guard word.count >= 2, let index = names.firstIndex(of: String(word.suffix(2)).uppercased()) else { return nil }
        let ordinal = word.count == 2 ? 1 : Int(word.dropLast(2)) ?? 1
        guard ordinal != 0, abs(ordinal) <= 5 else { return nil }
        return (ordinal, index + 1)
    }

    private static func month(of start: WallTime) -> Int {
        start.day.month
    }
}

extension WallTime {
    typealias Seconds = Int
}

extension Int {
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    func floorModulo(_ divisor: Int) -> Int {
        self - floorDivided(by: divisor) * divisor
    }
}
