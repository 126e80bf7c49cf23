import Foundation

/// Which due dates `todo list --due` keeps.
public enum DueFilter: Sendable, Hashable {
    /// Overdue at `now`: due on a day before `now`'s date in `timeZone`, or at a moment before `now`.
    case overdue(now: Date, timeZone: TimeZone)
    /// Due on one of `days`: a day among them, or a moment that falls on one of them in `timeZone`.
    case within(ClosedRange<CalendarDay>, timeZone: TimeZone)
    /// No due date at all (`--due none`).
    case unset

    /// The first and last days a due date can have.
    public static let allDays = CalendarDay(year: 1, month: 1, day: 1)!...CalendarDay(year: 9999, month: 12, day: 31)!

    /// Reads `overdue`, `today`, `tomorrow`, `week` (today through this ISO
    /// week's Sunday), `7d` or `next 7 days` (today through a week from
    /// today), `none` (no due date) or any date of `DueDateGrammar` (due on
    /// that date).
    public init(parsing text: String, now: Date, in timeZone: TimeZone) throws(TodoFieldError) {
        let today = CalendarDay(now, in: timeZone)
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "none":
            self = .unset
        case "overdue":
            // To the millisecond, as storage keeps moments, so storage and the selector agree.
            self = .overdue(now: now.roundedToMilliseconds, timeZone: timeZone)
        case "week":
            self = .within(today...today.adding(days: 7 - today.weekday), timeZone: timeZone)
        case let words where Self.comingDays(words) != nil:
            self = .within(today...today.adding(days: Self.comingDays(words)!), timeZone: timeZone)
        default:
            let day = try DueDateGrammar.parse(text, now: now, in: timeZone).day(in: timeZone)
            self = .within(day...day, timeZone: timeZone)
        }
    }

    /// `7d`, `next 7 days`, `7 days`: today through the day that many days
    /// from now (the day `+7d` names).
    static func comingDays(_ words: String) -> Int? {
        var words = words.split(separator: " ").map(String.init)
        if words.first == "next" { words.removeFirst() }
        let count: Int? = switch words.count {
        case 1 where words[0].hasSuffix("d"): DueDateGrammar.digits(String(words[0].dropLast()))
        case 2 where ["day", "days"].contains(words[1]): DueDateGrammar.digits(words[0])
        default: nil
        }
        return count.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Due before the day `text` names (`--due-before`), or after it (`--due-after`).
    public init(parsing text: String, after: Bool, now: Date, in timeZone: TimeZone) throws(TodoFieldError) {
        let day = try DueDateGrammar.parse(text, now: now, in: timeZone).day(in: timeZone)
        if after {
            self = .within(min(day.adding(days: 1), Self.allDays.upperBound)...Self.allDays.upperBound, timeZone: timeZone)
        } else {
            self = .within(Self.allDays.lowerBound...max(day.adding(days: -1), Self.allDays.lowerBound), timeZone: timeZone)
        }
    }

    /// The todos both filters keep, as one range of days; nil when no range
    /// says it (`overdue` or `none` with a range) or no day is in both.
    public func intersection(_ other: DueFilter) -> DueFilter? {
        guard case let .within(days, timeZone) = self, case let .within(otherDays, _) = other else { return nil }
        let lower = max(days.lowerBound, otherDays.lowerBound), upper = min(days.upperBound, otherDays.upperBound)
        return lower <= upper ? .within(lower...upper, timeZone: timeZone) : nil
    }

    /// Whether a todo due at `due` passes; a todo with no due date passes `unset` only.
    public func includes(_ due: TodoDue?) -> Bool {
        guard let due else { return self == .unset }
        switch self {
        case let .overdue(now, timeZone): return due.isOverdue(now: now, in: timeZone)
        case let .within(days, timeZone): return days.contains(due.day(in: timeZone))
        case .unset: return false
        }
    }
}
