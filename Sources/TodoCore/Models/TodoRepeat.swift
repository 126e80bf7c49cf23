import Foundation

/// How a todo repeats: every `count` days, weeks, months or years, counted
/// from the due date of the occurrence completed.
public struct TodoRepeat: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case day = "d", week = "w", month = "m", year = "y"
    }

    public let count: Int
    public let unit: Unit

    public static let longest = 999

    public init?(count: Int, unit: Unit) {
        guard (1...Self.longest).contains(count) else { return nil }
        self.count = count
        self.unit = unit
    }

    /// Reads `daily`, `weekly`, `monthly`, `yearly`, or `Nd`, `Nw`, `Nm`, `Ny`
    /// (N from 1 to 999); nil otherwise.
    public init?(parsing raw: String) {
        let text = raw.lowercased()
        switch text {
        case "daily": self.init(count: 1, unit: .day)
        case "weekly": self.init(count: 1, unit: .week)
        case "monthly": self.init(count: 1, unit: .month)
        case "yearly", "annually": self.init(count: 1, unit: .year)
        default:
            guard let last = text.last, let unit = Unit(rawValue: String(last)),
                  let count = Int(text.dropLast()), text.dropLast().allSatisfy(\.isASCII) else { return nil }
            self.init(count: count, unit: unit)
        }
    }

    /// The stored and JSON form: `daily`, `weekly`, `monthly`, `yearly`, else `3d`.
    public var description: String {
        if count == 1 {
            switch unit {
            case .day: return "daily"
            case .week: return "weekly"
            case .month: return "monthly"
            case .year: return "yearly"
            }
        }
        return "\(count)\(unit.rawValue)"
    }

    /// The day one period after `day`; a month or a year keeps the day of the
    /// month, or takes the month's last day when it is shorter.
    public func next(after day: CalendarDay) -> CalendarDay {
        switch unit {
        case .day: day.adding(days: count)
        case .week: day.adding(days: 7 * count)
        case .month: day.adding(months: count)
        case .year: day.adding(months: 12 * count)
        }
    }

    /// The due date of the occurrence after one due at `due`: a moment keeps its time of day.
    public func next(after due: TodoDue, in timeZone: TimeZone) -> TodoDue {
        due.moved(to: next(after: due.day(in: timeZone)), in: timeZone)
    }
}
