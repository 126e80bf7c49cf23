import Foundation

/// How a todo repeats: every `count` days, weeks, months or years, counted
/// from the due date of the occurrence completed; the occurrence after a late
/// completion is the first due today or later, unless the chain is strict.
public struct TodoRepeat: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case day = "d", week = "w", month = "m", year = "y"
    }

    public let count: Int
    public let unit: Unit
    /// Every occurrence of the chain, overdue ones included (`weekly!`);
    /// otherwise completing a todo late brings the first occurrence due
    /// today or later.
    public let strict: Bool

    public static let longest = 999

    public init?(count: Int, unit: Unit, strict: Bool = false) {
        guard (1...Self.longest).contains(count) else { return nil }
        self.count = count
        self.unit = unit
        self.strict = strict
    }

    /// Reads `daily`, `weekly`, `monthly`, `yearly`, or `Nd`, `Nw`, `Nm`, `Ny`
    /// (N from 1 to 999), each with `!` after it for the strict chain; nil otherwise.
    public init?(parsing raw: String) {
        var text = raw.lowercased()
        let strict = text.hasSuffix("!")
        if strict { text.removeLast() }
        switch text {
        case "daily": self.init(count: 1, unit: .day, strict: strict)
        case "weekly": self.init(count: 1, unit: .week, strict: strict)
        case "monthly": self.init(count: 1, unit: .month, strict: strict)
        case "yearly", "annually": self.init(count: 1, unit: .year, strict: strict)
        default:
            guard let last = text.last, let unit = Unit(rawValue: String(last)),
                  let count = Int(text.dropLast()), text.dropLast().allSatisfy(\.isASCII) else { return nil }
            self.init(count: count, unit: unit, strict: strict)
        }
    }

    /// The stored and JSON form: `daily`, `weekly`, `monthly`, `yearly`, else
    /// `3d`; with `!` after it for the strict chain.
    public var description: String {
        let mark = strict ? "!" : ""
        if count == 1 {
            switch unit {
            case .day: return "daily" + mark
            case .week: return "weekly" + mark
            case .month: return "monthly" + mark
            case .year: return "yearly" + mark
            }
        }
        return "\(count)\(unit.rawValue)" + mark
    }

    /// The day one period after `day`; a month or a year keeps the day of the
    /// month, or takes the month's last day when it is shorter, and a
    /// month's last day stays the last day of its month.
    public func next(after day: CalendarDay) -> CalendarDay {
        advanced(day, by: 1)
    }

    /// The due date of the occurrence after one due at `due`: a moment keeps its time of day.
    public func next(after due: TodoDue, in timeZone: TimeZone) -> TodoDue {
        due.moved(to: next(after: due.day(in: timeZone)), in: timeZone)
    }

    /// The due date of the occurrence that follows one due at `due`,
    /// completed on `today`: the next in the chain, and for a chain that is
    /// not strict the first one due today or later (a todo weeks overdue is
    /// not followed by one overdue too). Counted from `due` each time, so a
    /// monthly todo due on the 31st stays on the month's last day.
    public func next(after due: TodoDue, completedOn today: CalendarDay, in timeZone: TimeZone) -> TodoDue {
        let start = due.day(in: timeZone)
        var periods = 1
        var day = advanced(start, by: periods)
        while !strict, day < today, periods < 100_000 {
            periods += 1
            day = advanced(start, by: periods)
        }
        return due.moved(to: day, in: timeZone)
    }

    /// `day` moved on by `periods` periods at once. By months or years, a
    /// month's last day moves to the last day of the month it lands in: a
    /// monthly todo due on 31 January is due on 28 February, then 31 March.
    func advanced(_ day: CalendarDay, by periods: Int) -> CalendarDay {
        let months: Int
        switch unit {
        case .day: return day.adding(days: count * periods)
        case .week: return day.adding(days: 7 * count * periods)
        case .month: months = count * periods
        case .year: months = 12 * count * periods
        }
        let moved = day.adding(months: months)
        return day == day.endOfMonth ? moved.endOfMonth : moved
    }
}
