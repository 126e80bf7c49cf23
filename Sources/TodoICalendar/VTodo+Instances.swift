import Foundation
import TodoCore

// MARK: - Occurrences another app completed on their own
// Thunderbird, eM Client and Outlook's CalDAV synchronizer complete one
// occurrence of a repeating task by adding a VTODO of the same UID beside
// the series: RECURRENCE-ID names the occurrence, STATUS:COMPLETED says it
// is done, and the series itself stays as it was. Tasks.org and OpenTasks
// move the series' DUE on instead, which is read as any moved date is.

extension VTodo {
    /// `fields`, the series in `calendar` as its lines say it (`asWritten`),
    /// read past the occurrences completed as instances of their own: each
    /// completed instance of the occurrence now due moves the series on as
    /// completing it here would (`TodoRepeat.next`): DUE to the next
    /// occurrence, the dates that move with it as many days, a COUNT one
    /// less. Completing the last occurrence of a series completes the task,
    /// when that instance was.
    ///
    /// An instance names its occurrence by DTSTART (DUE where the series
    /// has none), as RFC 5545 3.8.4.4 says; one that names DUE's day is
    /// taken too. Each instance moves the series once at most, so a
    /// calendar object's cost stays its size.
    public static func pastCompletedInstances(_ fields: VTodoFields, in calendar: ICalendarComponent, timeZone: TimeZone) -> VTodoFields {
        let instances = calendar.components.filter { $0.name == "VTODO" && $0.property("RECURRENCE-ID") != nil }
        guard !instances.isEmpty, !fields.isDone, var repeating = fields.recurrence, repeating.rule != nil, var due = fields.due,
              let index = masterIndex(in: calendar), case let .component(series) = calendar.entries[index] else { return fields }
        let zones = ICalendarZones(calendar)
        var completed: [(occurrence: CalendarDay, at: Date?)] = instances.compactMap { instance in
            guard let occurrence = instance.property("RECURRENCE-ID").flatMap({ Self.due($0, timeZone: timeZone, zones: zones) }) else { return nil }
            let at = instance.property("COMPLETED").flatMap { moment($0, timeZone: timeZone, zones: zones) }
            let status = instance.property("STATUS")?.value.uppercased()
            guard status == "COMPLETED" || (status == nil && at != nil) else { return nil }
            return (occurrence.day(in: timeZone), at)
        }
        // How many days the occurrence's start comes before its due date.
        let start = series.property("DTSTART").flatMap { Self.due($0, timeZone: timeZone, zones: zones) }
        let lead = start.map { due.day(in: timeZone).daysSince1970 - $0.day(in: timeZone).daysSince1970 } ?? 0
        var moved = fields
        while !completed.isEmpty {
            let dueDay = due.day(in: timeZone)
            guard let found = completed.firstIndex(where: { $0.occurrence == dueDay.adding(days: -lead) || $0.occurrence == dueDay }) else {
                break
            }
            let instance = completed.remove(at: found)
            let completedOn = instance.at.map { CalendarDay($0, in: timeZone) } ?? instance.occurrence
            guard let (nextDue, nextRepeat) = repeating.next(after: due, completedOn: completedOn, in: timeZone) else {
                moved.isDone = true
                moved.completedAt = instance.at ?? dueDay.start(in: timeZone)
                moved.start = nil
                break
            }
            moved.moveDates(byDays: nextDue.day(in: timeZone).daysSince1970 - dueDay.daysSince1970, in: timeZone)
            (due, repeating) = (nextDue, nextRepeat)
            moved.recurrence = repeating
        }
        return moved
    }
}
