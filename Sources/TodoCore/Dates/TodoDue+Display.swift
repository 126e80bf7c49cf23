import Foundation

extension TodoDue {
    /// The due date in few characters, for a list: `12-01` in `today`'s year,
    /// `2027-01-15` in another, and a time on the clock of `timeZone` after
    /// it (`12-01 14:30`).
    public func shortText(today: CalendarDay, in timeZone: TimeZone) -> String {
        let day = day(in: timeZone)
        let date = day.year == today.year ? String(day.description.dropFirst(5)) : day.description
        guard let time = timeOfDay(in: timeZone) else { return date }
        return date + " " + time
    }
}
