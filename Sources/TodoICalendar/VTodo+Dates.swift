import Foundation
import TodoCore

// MARK: - Dates and times as iCalendar writes them
// DUE, DTSTART and our date properties: a DATE (`20261201`) or a DATE-TIME,
// read in UTC, in a TZID's zone or floating, and written in UTC.

extension VTodo {
    /// DUE as a calendar date (VALUE=DATE, or eight digits) or a time.
    static func due(_ line: ContentLine, timeZone: TimeZone, zones: ICalendarZones = .system) -> TodoDue? {
        let value = line.value.trimmedASCIIWhitespace
        if line.parameter("VALUE")?.uppercased() == "DATE" || value.count == 8 {
            return day(value).map(TodoDue.day)
        }
        return moment(line, timeZone: timeZone, zones: zones).map(TodoDue.moment)
    }

    static func dueLine(_ due: TodoDue) -> ContentLine {
        dateLine("DUE", due)
    }

    /// A date property (DUE, DTSTART, ours) as DUE is written: a DATE, or a UTC time.
    static func dateLine(_ name: String, _ date: TodoDue) -> ContentLine {
        switch date {
        case let .day(day):
            ContentLine(name: name, parameters: [.init(name: "VALUE", values: ["DATE"])], value: compact(day))
        case let .moment(date):
            ContentLine(name: name, value: utc(date))
        }
    }

    /// The properties of ours that hold what iCalendar has no property for.
    static let projectProperty = "X-TODO-PROJECT", waitProperty = "X-TODO-WAIT", untilProperty = "X-TODO-UNTIL"
    static let scheduledProperty = "X-TODO-SCHEDULED"
    /// When work began (`TodoField.start`), beside STATUS:IN-PROCESS.
    static let startProperty = "X-TODO-START"
    /// `COMPLETION` for a repeat counted from the day it is done, beside
    /// the standard RRULE: an app that does not know it sees a plain repeat.
    static let fromProperty = "X-TODO-FROM"

    /// The days EXDATE takes out of a repeat, in every EXDATE line, as
    /// dates or as the days of its times in `timeZone`.
    static func exceptions(of todo: ICalendarComponent, timeZone: TimeZone, zones: ICalendarZones) -> [CalendarDay] {
        todo.properties("EXDATE").flatMap { line in
            line.value.split(separator: ",").compactMap { item -> CalendarDay? in
                let value = String(item).trimmedASCIIWhitespace
                if value.count == 8 { return day(value) }
                let one = ContentLine(name: line.name, parameters: line.parameters, value: value)
                return moment(one, timeZone: timeZone, zones: zones).map { CalendarDay($0, in: timeZone) }
            }
        }
    }

    /// Whether `date` can be DTSTART beside `due`: with no DUE, or of DUE's
    /// value type (a date or a time) and before it (RFC 5545 3.8.2.3).
    static func fitsDTSTART(_ date: TodoDue, due: TodoDue?) -> Bool {
        switch (date, due) {
        case (_, nil): true
        case let (.day(start), .day(end)?): start < end
        case let (.moment(start), .moment(end)?): start < end
        default: false
        }
    }

    /// A DATE-TIME value as written in a query (`20261201T000000Z`), or a DATE; nil if it is neither.
    public static func dateTime(_ text: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> Date? {
        moment(ContentLine(name: "X", value: text), timeZone: timeZone)
    }

    /// A DATE-TIME: UTC with `Z`; in the zone its TZID names, as `zones`
    /// resolves it; else floating, the wall time of the user (`timeZone`).
    /// A TZID no zone is known by is read as floating.
    static func moment(_ line: ContentLine, timeZone: TimeZone, zones: ICalendarZones = .system) -> Date? {
        var value = line.value.trimmedASCIIWhitespace
        var zone: TimeZone?
        var tzid: String?
        if value.hasSuffix("Z") || value.hasSuffix("z") {
            value.removeLast()
        } else {
            tzid = line.parameter("TZID")
            zone = timeZone
        }
        let parts = value.split(separator: "T")
        guard let dayPart = parts.first, let day = day(String(dayPart)) else { return nil }
        var components = DateComponents(year: day.year, month: day.month, day: day.day, hour: 0, minute: 0, second: 0)
        if parts.count == 2 {
            let time = Array(parts[1].utf8)
            guard time.count == 6, time.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let digits = time.map { Int($0 - 0x30) }
            components.hour = digits[0] * 10 + digits[1]
            components.minute = digits[2] * 10 + digits[3]
            components.second = min(digits[4] * 10 + digits[5], 59)
        } else if parts.count != 1 {
            return nil
        }
        if let tzid, let date = zones.date(components, tzid: tzid) { return date }
        guard let zone else {
            // UTC, as most times are written: counted, not asked of a calendar.
            let seconds = day.daysSince1970 * 86_400 + components.hour! * 3_600 + components.minute! * 60 + components.second!
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: components)
    }

    static func day(_ text: String) -> CalendarDay? {
        let bytes = Array(text.utf8)
        guard bytes.count == 8, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = bytes.map { Int($0 - 0x30) }
        let year = digits[0...3].reduce(0) { $0 * 10 + $1 }
        return CalendarDay(year: year, month: digits[4] * 10 + digits[5], day: digits[6] * 10 + digits[7])
    }

    static func compact(_ day: CalendarDay) -> String {
        day.description.replacingOccurrences(of: "-", with: "")
    }

    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day)
            + "T" + two(parts.hour) + two(parts.minute) + two(parts.second) + "Z"
    }

    /// Whole seconds: what iCalendar keeps of a time.
    static func seconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970).rounded(.down))
    }

    static func seconds(_ due: TodoDue) -> TodoDue {
        if case let .moment(date) = due { return .moment(Date(timeIntervalSince1970: Double(seconds(date)))) }
        return due
    }
}

// MARK: - Times as a query compares them

extension VTodo {
    /// The moment a DATE or DATE-TIME property's value starts: a DATE at
    /// midnight of `timeZone`, a time as `moment(_:timeZone:zones:)` reads it.
    public static func start(of line: ContentLine, timeZone: TimeZone, zones: ICalendarZones = .system) -> Date? {
        let value = line.value.trimmedASCIIWhitespace
        if line.parameter("VALUE")?.uppercased() == "DATE" || value.utf8.count == 8 {
            guard let day = day(value) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
        }
        return moment(line, timeZone: timeZone, zones: zones)
    }

    /// Whether a property's value is a DATE (a whole day), not a time.
    public static func isDate(_ line: ContentLine) -> Bool {
        line.parameter("VALUE")?.uppercased() == "DATE" || line.value.trimmedASCIIWhitespace.utf8.count == 8
    }

    /// A DURATION value (RFC 5545, 3.3.6) in seconds: `P1W`, `-PT15M`,
    /// `P1DT2H`; nil if it is not one.
    public static func duration(_ text: String) -> TimeInterval? {
        var rest = Substring(text.trimmedASCIIWhitespace)
        var sign = 1.0
        if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P" || rest.first == "p" else { return nil }
        rest = rest.dropFirst()
        var seconds = 0.0
        var number = 0
        var digits = 0
        var inTime = false
        var any = false
        for character in rest.uppercased() {
            if let digit = character.wholeNumberValue, character.isASCII {
                guard digits < 9 else { return nil }
                number = number * 10 + digit
                digits += 1
                continue
            }
            let unit: Double
            switch (character, inTime) {
            case ("T", false): inTime = true; continue
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3_600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            guard digits > 0 else { return nil }
            seconds += Double(number) * unit
            number = 0
            digits = 0
            any = true
        }
        guard any, digits == 0 else { return nil }
        return sign * seconds
    }
}
