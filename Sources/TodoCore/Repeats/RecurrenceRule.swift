import Foundation

/// A repeat rule as RFC 5545 (3.3.10) writes it, for the rules a todo's
/// date can follow: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, with INTERVAL,
/// BYDAY (with ordinals: `2MO`, `-1FR`), BYMONTHDAY (with `-1`), BYMONTH,
/// BYSETPOS, COUNT or UNTIL, and WKST.
///
/// A rule beyond these (SECONDLY, BYHOUR, BYWEEKNO, …) is not one: reading
/// it gives nil, and whoever read it keeps its text as it came.
/// `RecurrenceRule+Occurrences.swift` answers which days a rule names.
public struct RecurrenceRule: Sendable, Hashable {
    public enum Frequency: String, Sendable, Hashable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday (1 Monday … 7 Sunday), and for a monthly or
    /// yearly rule which one of its month (or year) it is: 1 the first, -1
    /// the last; nil, every one.
    public struct Weekday: Sendable, Hashable {
        public var ordinal: Int?
        public var weekday: Int

        public init(_ weekday: Int, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// Where the series ends: after so many occurrences (the first one
    /// counted), or on the last date (or moment) it may fall on.
    public enum End: Sendable, Hashable {
        case count(Int)
        case until(Until)
    }

    /// UNTIL's value: a date, a moment (UTC, `Z`), or a floating local time.
    public enum Until: Sendable, Hashable {
        case day(CalendarDay)
        case moment(Date)
        case local(CalendarDay, secondsIntoDay: Int)

        /// The last day an occurrence may fall on, in `timeZone`.
        public func lastDay(in timeZone: TimeZone) -> CalendarDay {
            switch self {
            case let .day(day), let .local(day, _): day
            case let .moment(date): CalendarDay(date, in: timeZone)
            }
        }
    }

    public var frequency: Frequency
    public var interval: Int
    public var byDay: [Weekday]
    public var byMonthDay: [Int]
    public var byMonth: [Int]
    public var bySetPosition: [Int]
    public var end: End?
    /// The day a week starts on (1 Monday … 7 Sunday): it decides which
    /// weeks an INTERVAL counts.
    public var weekStart: Int

    public init(
        _ frequency: Frequency, interval: Int = 1, byDay: [Weekday] = [], byMonthDay: [Int] = [],
        byMonth: [Int] = [], bySetPosition: [Int] = [], end: End? = nil, weekStart: Int = 1
    ) {
        self.frequency = frequency
        self.interval = interval
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byMonth = byMonth
        self.bySetPosition = bySetPosition
        self.end = end
        self.weekStart = weekStart
    }

    /// The longest INTERVAL and the largest COUNT read: far past any use,
    /// and they keep the cost of a hostile rule bounded.
    public static let longestInterval = 9_999
    public static let largestCount = 99_999

    /// Whether it is only a frequency and an interval: what `daily`,
    /// `weekly`, `3d` and the like say.
    public var isPlain: Bool {
        byDay.isEmpty && byMonthDay.isEmpty && byMonth.isEmpty && bySetPosition.isEmpty && end == nil && weekStart == 1
    }
}

// MARK: - Its text

extension RecurrenceRule {
    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Reads an RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE`, with or without
    /// `RRULE:` before it; names in any case, parts in any order). Nil for
    /// text that is not a rule, a part given twice, a value out of range,
    /// both COUNT and UNTIL, and a rule beyond this type (see its summary).
    /// Parts named `X-…` are passed over: `TodoRepeat` reads its own.
    public init?(rrule text: some StringProtocol) {
        var text = Substring(text).trimmingCharacters(in: .whitespaces)[...]
        if text.uppercased().hasPrefix("RRULE:") { text = text.dropFirst(6) }
        var seen = Set<String>()
        var frequency: Frequency?
        var rule = RecurrenceRule(.daily)
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return nil }
            let name = pair[0].trimmingCharacters(in: .whitespaces).uppercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces).uppercased()
            if name.hasPrefix("X-") { continue }
            guard seen.insert(name).inserted, !value.isEmpty else { return nil }
            switch name {
            case "FREQ":
                guard let read = Frequency(rawValue: value) else { return nil }
                frequency = read
            case "INTERVAL":
                guard let interval = Int(value), (1...Self.longestInterval).contains(interval) else { return nil }
                rule.interval = interval
            case "COUNT":
                guard rule.end == nil, let count = Int(value), (1...Self.largestCount).contains(count) else { return nil }
                rule.end = .count(count)
            case "UNTIL":
                guard rule.end == nil, let until = Self.until(value) else { return nil }
                rule.end = .until(until)
            case "BYDAY":
                guard let days = Self.list(value, Self.weekday) else { return nil }
                rule.byDay = days
            case "BYMONTHDAY":
                guard let days = Self.list(value, { Self.number($0, in: 1...31) }) else { return nil }
                rule.byMonthDay = days
            case "BYMONTH":
                guard let months = Self.list(value, { Int($0).flatMap { (1...12).contains($0) ? $0 : nil } }) else { return nil }
                rule.byMonth = months
            case "BYSETPOS":
                guard let positions = Self.list(value, { Self.number($0, in: 1...366) }) else { return nil }
                rule.bySetPosition = positions
            case "WKST":
                guard let index = Self.weekdayNames.firstIndex(of: value) else { return nil }
                rule.weekStart = index + 1
            default:
                // BYHOUR, BYWEEKNO, BYYEARDAY, RSCALE, …: beyond this type.
                return nil
            }
        }
        guard let frequency else { return nil }
        rule.frequency = frequency
        // An ordinal BYDAY belongs to a month or a year (RFC 5545 3.3.10).
        if frequency == .daily || frequency == .weekly, rule.byDay.contains(where: { $0.ordinal != nil }) { return nil }
        self = rule
    }

    /// The RRULE value, its parts in one order: FREQ, INTERVAL, COUNT or
    /// UNTIL, BYMONTH, BYMONTHDAY, BYDAY, BYSETPOS, WKST.
    public var rrule: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case let .count(count): parts.append("COUNT=\(count)")
        case let .until(until): parts.append("UNTIL=" + Self.text(of: until))
        case nil: break
        }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + Self.weekdayNames[$0.weekday - 1] }.joined(separator: ","))
        }
        if !bySetPosition.isEmpty { parts.append("BYSETPOS=" + bySetPosition.map(String.init).joined(separator: ",")) }
        if weekStart != 1 { parts.append("WKST=" + Self.weekdayNames[weekStart - 1]) }
        return parts.joined(separator: ";")
    }

    /// The most entries a BYxxx list may hold: more than any list of
    /// distinct values needs (BYSETPOS counts up to 366 days from each end),
    /// so a hostile rule's lists stay short.
    static let longestList = 2 * 366

    private static func list<T>(_ value: String, _ read: (String) -> T?) -> [T]? {
        var items: [T] = []
        let entries = value.split(separator: ",", omittingEmptySubsequences: false)
        guard entries.count <= longestList else { return nil }
        for item in entries {
            guard let read = read(item.trimmingCharacters(in: .whitespaces)) else { return nil }
            items.append(read)
        }
        return items
    }

    /// `n` or `-n` or `+n` with n in `range`.
    private static func number(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text), range.contains(abs(value)) else { return nil }
        return value
    }

    /// `MO`, `2MO`, `-1FR`, `+3TU`.
    private static func weekday(_ text: String) -> Weekday? {
        guard text.count >= 2, let index = weekdayNames.firstIndex(of: String(text.suffix(2))) else { return nil }
        let ordinalText = text.dropLast(2)
        if ordinalText.isEmpty { return Weekday(index + 1) }
        guard let ordinal = number(String(ordinalText), in: 1...53) else { return nil }
        return Weekday(index + 1, ordinal: ordinal)
    }

    /// `20261231`, `20261231T235959Z` or `20261231T235959`.
    private static func until(_ text: String) -> Until? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 128 }), bytes.count == 8 || bytes.count == 15 || bytes.count == 16 else { return nil }
        let digits = { (range: Range<Int>) -> Int? in Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = digits(0..<4), let month = digits(4..<6), let dayNumber = digits(6..<8),
              let day = CalendarDay(year: year, month: month, day: dayNumber) else { return nil }
        if bytes.count == 8 { return .day(day) }
        guard bytes[8] == UInt8(ascii: "T"), let hour = digits(9..<11), let minute = digits(11..<13), let second = digits(13..<15),
              hour < 24, minute < 60, second < 61 else { return nil }
        let seconds = hour * 3600 + minute * 60 + min(second, 59)
        if bytes.count == 15 { return .local(day, secondsIntoDay: seconds) }
        guard bytes[15] == UInt8(ascii: "Z") else { return nil }
        return .moment(Date(timeIntervalSince1970: Double(day.daysSince1970 * 86_400 + seconds)))
    }

    private static func text(of until: Until) -> String {
        func compact(_ day: CalendarDay) -> String { day.description.replacingOccurrences(of: "-", with: "") }
        func time(_ seconds: Int) -> String {
            [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
        }
        switch until {
        case let .day(day): return compact(day)
        case let .local(day, seconds): return compact(day) + "T" + time(seconds)
        case let .moment(date):
            let seconds = Int(date.timeIntervalSince1970.rounded(.down))
            let days = Int((Double(seconds) / 86_400).rounded(.down))
            return compact(CalendarDay(daysSince1970: days)) + "T" + time(seconds - days * 86_400) + "Z"
        }
    }
}
