import Foundation
import TodoCore

/// What a VTODO says, in the terms of a todo: the one mapping between the
/// two (the table in Docs/caldav.md), for todo-server's CalDAV and for
/// `todo sync` with CalDAV servers alike.
public struct VTodoFields: Sendable, Equatable, TodoDatesHolding {
    public var uid: String
    public var text = ""
    public var isDone = false
    public var completedAt: Date?
    public var due: TodoDue?
    public var priority: TodoPriority?
    public var tags: [String] = []
    public var note: String?
    /// RRULE (with EXDATE and our X-TODO-FROM and X-TODO-STRICT); one the
    /// engine does not follow (with RDATE, or on a task with no DUE) is
    /// kept as it came (`TodoRepeat.kept`).
    public var recurrence: TodoRepeat?
    /// `X-TODO-PROJECT`: no standard property holds a project.
    public var project: String?
    /// `X-TODO-WAIT`, `DTSTART` (or `X-TODO-SCHEDULED` where DTSTART would
    /// not fit DUE) and `X-TODO-UNTIL`, dates as DUE is written.
    public var wait: TodoDue?
    public var scheduled: TodoDue?
    public var until: TodoDue?
    /// `RELATED-TO;RELTYPE=PARENT` and `RELATED-TO;RELTYPE=DEPENDS-ON`
    /// (RFC 9253): the UIDs they name, as written (a todo's UUID, or any UID
    /// another app gave a task); compared by `VTodo.linkKey`.
    public var parent: String?
    public var blockedBy: [String] = []
    /// When work on it began: `X-TODO-START`, read while STATUS is
    /// IN-PROCESS (an app that set only the status started it when it last
    /// changed it) or COMPLETED; a task stopped in another app (any other
    /// status) has none.
    public var start: TodoDue?
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(uid: String) {
        self.uid = uid
    }
}

/// Why an iCalendar object is not one task this codec stores.
public enum VTodoError: Error, Equatable, Sendable {
    case noVTodo
    case event
    case noUID
    case severalUIDs

    public var message: String {
        switch self {
        case .noVTodo: "The calendar object holds no VTODO; send a VCALENDAR with one VTODO."
        case .event: "The calendar object holds a VEVENT or a VJOURNAL; this task list stores VTODOs only."
        case .noUID: "The VTODO has no UID; give it one."
        case .severalUIDs: "The calendar object holds VTODOs with different UIDs; send one task per resource."
        }
    }
}

public enum VTodo {
    /// The fields of the task in `calendar`: its VTODO without a
    /// RECURRENCE-ID (the series), read in `timeZone` where a time names no
    /// zone, and past the occurrences completed as instances of their own
    /// (`pastCompletedInstances`) unless `asWritten`.
    public static func fields(of calendar: ICalendarComponent, timeZone: TimeZone, asWritten: Bool = false) throws(VTodoError) -> VTodoFields {
        let todo = try master(of: calendar)
        guard let uid = todo.property("UID")?.value, !uid.isEmpty else { throw .noUID }
        var fields = VTodoFields(uid: uid)
        let zones = ICalendarZones(calendar)
        fields.text = todo.property("SUMMARY").map { ICalendarText.unescape($0.value[...]) } ?? ""
        let status = todo.property("STATUS")?.value.uppercased()
        fields.completedAt = todo.property("COMPLETED").flatMap { moment($0, timeZone: timeZone, zones: zones) }
        fields.isDone = status == "COMPLETED" || (status == nil && fields.completedAt != nil)
        if !fields.isDone { fields.completedAt = nil }
        fields.due = todo.property("DUE").flatMap { due($0, timeZone: timeZone, zones: zones) }
        fields.priority = todo.property("PRIORITY").flatMap { Int($0.value.trimmedASCIIWhitespace) }.flatMap(priority)
        var tags: [String] = []
        var seen = Set<String>()
        for line in todo.properties("CATEGORIES") {
            for tag in ICalendarText.list(line.value) {
                let trimmed = tag.trimmedASCIIWhitespace
                if !trimmed.isEmpty, seen.insert(trimmed).inserted { tags.append(trimmed) }
            }
        }
        fields.tags = tags
        fields.note = todo.property("DESCRIPTION").map { ICalendarText.unescape($0.value[...]) }.flatMap { $0.isEmpty ? nil : $0 }
        let rule = todo.property("RRULE")?.value
        let dates = todo.properties("RDATE").map(\.value).joined(separator: ",")
        if rule != nil || !dates.isEmpty {
            if let rule, dates.isEmpty, fields.due != nil, let recurrence = RecurrenceRule(rrule: rule) {
                let anchor: TodoRepeat.Anchor = if todo.property(fromProperty)?.value.uppercased() == "COMPLETION" {
                    .completion
                } else if todo.property("X-TODO-STRICT")?.value.uppercased() == "TRUE" {
                    .strict
                } else {
                    .due
                }
                fields.recurrence = TodoRepeat(rule: recurrence, anchor: anchor, exceptions: exceptions(of: todo, timeZone: timeZone, zones: zones))
            } else {
                fields.recurrence = TodoRepeat.keeping(rule, dates: dates)
            }
        }
        fields.project = todo.property(projectProperty).map { ICalendarText.unescape($0.value[...]) }.flatMap { $0.isEmpty ? nil : $0 }
        fields.wait = todo.property(waitProperty).flatMap { due($0, timeZone: timeZone, zones: zones) }
        fields.scheduled = (todo.property(scheduledProperty) ?? todo.property("DTSTART")).flatMap { due($0, timeZone: timeZone, zones: zones) }
        fields.until = todo.property(untilProperty).flatMap { due($0, timeZone: timeZone, zones: zones) }
        (fields.parent, fields.blockedBy) = links(of: todo)
        fields.createdAt = todo.property("CREATED").flatMap { moment($0, timeZone: timeZone, zones: zones) }
        fields.updatedAt = (todo.property("LAST-MODIFIED") ?? todo.property("DTSTAMP")).flatMap { moment($0, timeZone: timeZone, zones: zones) }
        if status == "IN-PROCESS" || fields.isDone {
            let start = todo.property(startProperty).flatMap { due($0, timeZone: timeZone, zones: zones) }
            fields.start = start ?? (fields.isDone ? nil : fields.updatedAt.map(TodoDue.moment))
        }
        return asWritten ? fields : pastCompletedInstances(fields, in: calendar, timeZone: timeZone)
    }

    /// `calendar` (or a new VCALENDAR) saying `fields`: in its VTODO, each
    /// mapped property whose meaning changed is rewritten; every other line,
    /// ours or another app's, stays as it came. LAST-MODIFIED and DTSTAMP
    /// become `now` when anything changed. What the calendar said is `was`
    /// where the caller knows it in the same terms as `fields` (a server
    /// that keeps the fields the text was stored with), else as its lines
    /// say it (`asWritten`): a series another app moved on by completing
    /// an instance has its dates written where they moved to.
    /// A RELATED-TO naming a UID `isForeignLink` says the caller cannot know
    /// stays as another app's line (`setLinks`).
    public static func write(
        _ fields: VTodoFields, over calendar: ICalendarComponent?, was: VTodoFields? = nil, timeZone: TimeZone, now: Date,
        isForeignLink: (String) -> Bool = { _ in false }
    ) -> ICalendarComponent {
        let given = calendar
        var calendar = calendar ?? ICalendarComponent(name: "VCALENDAR", entries: [
            .property(ContentLine(name: "VERSION", value: "2.0")),
            .property(ContentLine(name: "PRODID", value: "-//todo//todo//EN")),
            .component(ICalendarComponent(name: "VTODO")),
        ])
        let old = given == nil ? nil : was ?? (try? Self.fields(of: calendar, timeZone: timeZone, asWritten: true))
        guard let index = masterIndex(in: calendar), case var .component(todo) = calendar.entries[index] else {
            return calendar
        }
        var changed = false
        func set(_ name: String, _ line: ContentLine?) {
            todo.set(name, to: line)
            changed = true
        }
        if old?.uid != fields.uid { set("UID", ContentLine(name: "UID", value: fields.uid)) }
        if old?.text != fields.text { set("SUMMARY", ContentLine(name: "SUMMARY", value: ICalendarText.escape(fields.text))) }
        if old?.isDone != fields.isDone || old?.completedAt.map(seconds) != fields.completedAt.map(seconds) {
            set("STATUS", ContentLine(name: "STATUS", value: status(fields)))
            set("COMPLETED", fields.isDone ? ContentLine(name: "COMPLETED", value: utc(fields.completedAt ?? now)) : nil)
            // A reopened task is not 100% complete; a pending one's own figure stays.
            if fields.isDone { set("PERCENT-COMPLETE", ContentLine(name: "PERCENT-COMPLETE", value: "100")) }
            if old?.isDone == true, !fields.isDone { set("PERCENT-COMPLETE", nil) }
        }
        // Started or stopped: IN-PROCESS while not done, or back to
        // NEEDS-ACTION (another status of another app's stays).
        let inProcess = todo.property("STATUS")?.value.uppercased() == "IN-PROCESS"
        if !fields.isDone, (fields.start != nil) != inProcess { set("STATUS", ContentLine(name: "STATUS", value: status(fields))) }
        if old?.due.map(seconds) != fields.due.map(seconds) { set("DUE", fields.due.map(dueLine)) }
        if old?.priority != fields.priority {
            set("PRIORITY", fields.priority.map { ContentLine(name: "PRIORITY", value: String(rank(of: $0))) })
        }
        if Set(old?.tags ?? []) != Set(fields.tags) {
            set("CATEGORIES", fields.tags.isEmpty ? nil
                : ContentLine(name: "CATEGORIES", value: fields.tags.map(ICalendarText.escape).joined(separator: ",")))
        }
        if old?.note != fields.note {
            set("DESCRIPTION", fields.note.map { ContentLine(name: "DESCRIPTION", value: ICalendarText.escape($0)) })
        }
        if old?.recurrence != fields.recurrence {
            let rule = fields.recurrence.flatMap { $0.rule?.rrule ?? $0.keptRRule }
            set("RRULE", rule.map { ContentLine(name: "RRULE", value: $0) })
            set("RDATE", fields.recurrence?.keptDates.map { dates in
                let allDays = dates.split(separator: ",").allSatisfy { $0.count == 8 }
                return ContentLine(name: "RDATE", parameters: allDays ? [.init(name: "VALUE", values: ["DATE"])] : [], value: dates)
            })
            set("X-TODO-STRICT", fields.recurrence?.strict == true ? ContentLine(name: "X-TODO-STRICT", value: "TRUE") : nil)
            set(fromProperty, fields.recurrence?.anchor == .completion ? ContentLine(name: fromProperty, value: "COMPLETION") : nil)
            let exceptions = fields.recurrence?.exceptions ?? []
            set("EXDATE", exceptions.isEmpty ? nil : ContentLine(
                name: "EXDATE", parameters: [.init(name: "VALUE", values: ["DATE"])],
                value: exceptions.map { $0.description.replacingOccurrences(of: "-", with: "") }.joined(separator: ",")
            ))
        }
        if old?.project != fields.project {
            set(projectProperty, fields.project.map { ContentLine(name: projectProperty, value: ICalendarText.escape($0)) })
        }
        if old?.wait.map(seconds) != fields.wait.map(seconds) { set(waitProperty, fields.wait.map { dateLine(waitProperty, $0) }) }
        // DTSTART only where RFC 5545 allows it beside DUE (the same value
        // type, earlier): servers refuse a task that breaks that rule. A
        // DTSTART the new DUE still allows stays as it was written (its TZID too).
        let scheduledChanged = old?.scheduled.map(seconds) != fields.scheduled.map(seconds)
        let dueChanged = old?.due.map(seconds) != fields.due.map(seconds)
        let startStillFits = todo.property("DTSTART") == nil || fields.scheduled.map { fitsDTSTART($0, due: fields.due) } ?? true
        if scheduledChanged || (dueChanged && fields.scheduled != nil && !startStillFits) {
            let fits = fields.scheduled.map { fitsDTSTART($0, due: fields.due) } ?? true
            set("DTSTART", fits ? fields.scheduled.map { dateLine("DTSTART", $0) } : nil)
            set(scheduledProperty, fits ? nil : fields.scheduled.map { dateLine(scheduledProperty, $0) })
        }
        if old?.until.map(seconds) != fields.until.map(seconds) { set(untilProperty, fields.until.map { dateLine(untilProperty, $0) }) }
        if old?.parent.map(linkKey) != fields.parent.map(linkKey) {
            setLinks(&todo, parent: true, to: fields.parent.map { [$0] } ?? [], isForeign: isForeignLink)
            changed = true
        }
        if Set((old?.blockedBy ?? []).map(linkKey)) != Set(fields.blockedBy.map(linkKey)) {
            setLinks(&todo, parent: false, to: fields.blockedBy, isForeign: isForeignLink)
            changed = true
        }
        // The moment work began, as the line says it: written when it
        // changed, and when a started task is completed (a done task's start
        // is read from the line alone). An edit of another field leaves an
        // app's IN-PROCESS without it as it was: read as started when it last
        // changed.
        let writtenStart = todo.property(startProperty).flatMap { due($0, timeZone: timeZone) }
        let completed = fields.isDone && old?.isDone != true
        if writtenStart.map(seconds) != fields.start.map(seconds), completed || old?.start.map(seconds) != fields.start.map(seconds) {
            set(startProperty, fields.start.map { dateLine(startProperty, $0) })
        }
        // CREATED is written on a new task, and rewritten only where the client wrote one.
        if let created = fields.createdAt, old == nil || old?.createdAt != nil, old?.createdAt.map(seconds) != seconds(created) {
            set("CREATED", ContentLine(name: "CREATED", value: utc(created)))
        }
        if changed || todo.property("DTSTAMP") == nil {
            let stamp = utc(fields.updatedAt.map { max($0, now) } ?? now)
            todo.set("DTSTAMP", to: ContentLine(name: "DTSTAMP", value: stamp))
            todo.set("LAST-MODIFIED", to: ContentLine(name: "LAST-MODIFIED", value: stamp))
        }
        calendar.entries[index] = .component(todo)
        return calendar
    }

    // MARK: - The parts

    /// The STATUS that says `fields`' state: COMPLETED, IN-PROCESS once
    /// started, else NEEDS-ACTION.
    static func status(_ fields: VTodoFields) -> String {
        fields.isDone ? "COMPLETED" : fields.start == nil ? "NEEDS-ACTION" : "IN-PROCESS"
    }

    /// The task's VTODO: the one without RECURRENCE-ID; every VTODO must share its UID.
    static func master(of calendar: ICalendarComponent) throws(VTodoError) -> ICalendarComponent {
        guard calendar.name == "VCALENDAR" else { throw .noVTodo }
        let components = calendar.components
        if components.contains(where: { $0.name == "VEVENT" || $0.name == "VJOURNAL" }) { throw .event }
        let todos = components.filter { $0.name == "VTODO" }
        guard let index = masterIndex(in: calendar), case let .component(master) = calendar.entries[index] else { throw .noVTodo }
        if Set(todos.map { $0.property("UID")?.value ?? "" }).count > 1 { throw .severalUIDs }
        return master
    }

    /// Where the task's VTODO is among the calendar's entries: the first
    /// without RECURRENCE-ID (the series), else the first. Reading and
    /// writing both use it, so a write rewrites the VTODO that was read.
    public static func masterIndex(in calendar: ICalendarComponent) -> Int? {
        func isTodo(_ entry: ICalendarComponent.Entry, series: Bool) -> Bool {
            guard case let .component(component) = entry, component.name == "VTODO" else { return false }
            return !series || component.property("RECURRENCE-ID") == nil
        }
        return calendar.entries.firstIndex { isTodo($0, series: true) } ?? calendar.entries.firstIndex { isTodo($0, series: false) }
    }

    /// PRIORITY 1-4 high, 5 medium, 6-9 low (RFC 5545 3.8.1.9); 0 none.
    static func priority(_ value: Int) -> TodoPriority? {
        switch value {
        case 1...4: .high
        case 5: .medium
        case 6...9: .low
        default: nil
        }
    }

    static func rank(of priority: TodoPriority) -> Int {
        switch priority {
        case .high: 1
        case .medium: 5
        case .low: 9
        }
    }

}
