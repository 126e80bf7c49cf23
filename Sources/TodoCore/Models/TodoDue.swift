import Foundation

/// When a todo is due: a calendar date, the same date in every time zone, or
/// a moment (a date and a time of day, typed in the local time zone and kept
/// as the instant it names).
public enum TodoDue: Sendable, Hashable {
    case day(CalendarDay)
    case moment(Date)

    public init(_ day: CalendarDay) { self = .day(day) }

    /// The stored and JSON form: `2026-12-01`, or `2026-12-01T13:30:00.000Z` in UTC.
    ///
    /// Both forms sort as text in due order, a day before the moments of the
    /// UTC date it starts with, which lets SQL order and filter by them.
    public var text: String {
        switch self {
        case let .day(day): day.description
        case let .moment(date): ISO8601.string(from: date)
        }
    }

    /// Reads the stored form, or any ISO 8601 date with a time; nil otherwise.
    public init?(text: String) {
        if let day = CalendarDay(parsing: text) {
            self = .day(day)
        } else if text.count > 10, let date = ISO8601.date(from: text) {
            self = .moment(date)
        } else {
            return nil
        }
    }

    /// The same date, a moment rounded to the millisecond as todos keep times.
    public var roundedToMilliseconds: TodoDue {
        if case let .moment(date) = self { .moment(date.roundedToMilliseconds) } else { self }
    }

    /// Reached at `now`: a day that is today or past, a moment not after `now`.
    public func isReached(now: Date, in timeZone: TimeZone) -> Bool {
        switch self {
        case let .day(day): day <= CalendarDay(now, in: timeZone)
        case let .moment(date): date <= now
        }
    }

    /// The calendar date it falls on in `timeZone`.
    public func day(in timeZone: TimeZone) -> CalendarDay {
        switch self {
        case let .day(day): day
        case let .moment(date): CalendarDay(date, in: timeZone)
        }
    }

    /// Past: a day before today, or a moment before now.
    public func isOverdue(now: Date, in timeZone: TimeZone) -> Bool {
        switch self {
        case let .day(day): day < CalendarDay(now, in: timeZone)
        case let .moment(date): date < now
        }
    }

    /// Its time of day where it has one: `14:30` in `timeZone`.
    public func timeOfDay(in timeZone: TimeZone) -> String? {
        guard case let .moment(date) = self else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The same kind of due, moved to `day`: a moment keeps its time of day in `timeZone`.
    public func moved(to day: CalendarDay, in timeZone: TimeZone) -> TodoDue {
        switch self {
        case .day: return .day(day)
        case let .moment(date):
            let offset = date.timeIntervalSince(self.day(in: timeZone).start(in: timeZone))
            return .moment((day.start(in: timeZone) + offset).roundedToMilliseconds)
        }
    }
}
