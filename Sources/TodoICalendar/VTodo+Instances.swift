import Foundation
import TodoCore

// MARK: - Occurrences another app completed on their own
// Thunderbird, eM Client and Outlook's CalDAV synchronizer complete one
// occurrence of a repeating task by adding a VTODO of the same UID beside
// the series: RECURRENCE-ID names the occurrence, STATUS:COMPLETED says it
// is done, and the series itself stays as it was. Tasks.org and OpenTasks
// move the series' DUE on instead, which is read as any moved date is.

extension VTodo {
    /// `fields`, the series, read past the occurrences completed as
    /// instances of their own: each completed instance of the occurrence
    /// now due moves the series on as completing it here would
    /// (`TodoRepeat.next`): DUE to the next occurrence, the wait and
    /// scheduled dates as many days, a COUNT one less. Completing the last
    /// occurrence of a series completes the task, when that instance was.
    ///
    /// An instance names its occurrence by DTSTART (DUE where the series
    /// has none), as RFC 5545 3.8.4.4 says; one that names DUE's day is
    /// taken too. Each instance moves the series once at most, so a
    /// calendar object's cost stays its size.
    static func readingCompletedInstances(
        _ fields: inout VTodoFields, of series: ICalendarComponent, in calendar: ICalendarComponent, timeZone: TimeZone, zones: ICalendarZones
    ) {
        guard !fields.isDone, var repeating = fields.recurrence, repeating.rule != nil, var due = fields.due else { return }
        var completed: [(occurrence: CalendarDay, at: Date?)] = calendar.components.compactMap { instance in
            guard instance.name == "VTODO", let id = instance.property("RECURRENCE-ID"),
                  let occurrence = Self.due(id, timeZone: timeZone, zones: zones) else { return nil }
            let at = instance.property("COMPLETED").flatMap { moment($0, timeZone: timeZone, zones: zones) }
            let status = instance.property("STATUS")?.value.uppercased()
            guard status == "COMPLETED" || (status == nil && at != nil) else { return nil }
            return (occurrence.day(in: timeZone), at)
        }
        // How many days the occurrence's start comes before its due date.
        let start = series.property("DTSTART").flatMap { Self.due($0, timeZone: timeZone, zones: zones) }
        let lead = start.map { due.day(in: timeZone).daysSince1970 - $0.day(in: timeZone).daysSince1970 } ?? 0
        while !completed.isEmpty {
            let dueDay = due.day(in: timeZone)
            guard let index = completed.firstIndex(where: { $0.occurrence == dueDay.adding(days: -lead) || $0.occurrence == dueDay }) else {
                return
            }
            let instance = completed.remove(at: index)
            let completedOn = instance.at.map { CalendarDay($0, in: timeZone) } ?? instance.occurrence
            guard let (nextDue, nextRepeat) = repeating.next(after: due, completedOn: completedOn, in: timeZone) else {
                fields.isDone = true
                fields.completedAt = instance.at ?? dueDay.start(in: timeZone)
                fields.start = nil
                return
            }
            let shift = nextDue.day(in: timeZone).daysSince1970 - dueDay.daysSince1970
            func moved(_ date: TodoDue?) -> TodoDue? { date.map { $0.moved(to: $0.day(in: timeZone).adding(days: shift), in: timeZone) } }
            fields.wait = moved(fields.wait)
            fields.scheduled = moved(fields.scheduled)
            (due, repeating) = (nextDue, nextRepeat)
            fields.due = due
            fields.recurrence = repeating
        }
    }
}
