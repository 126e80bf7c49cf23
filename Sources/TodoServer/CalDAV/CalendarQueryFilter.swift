import Foundation
import TodoICalendar
import TodoXML

/// A calendar-query's filter (RFC 4791, 9.7), read once per request and
/// tried on each resource's calendar object as GET serves it: nested
/// comp-filters, prop-filters (bare: defined; `is-not-defined`), text-match
/// in the three collations a client may name, with `negate-condition`,
/// param-filters, and time-ranges by the rules of 9.9 (a VTODO by its
/// DTSTART, DUE, DURATION, COMPLETED and CREATED; a VALARM by its triggers).
/// A recurring task is tried as its stored components, not expanded.
struct CalendarQueryFilter: Sendable {
    /// Why a filter is not one the server evaluates exactly: never answered with a superset.
    enum Problem: Error, Equatable {
        case collation(String)
        case invalid(String)

        var message: String {
            switch self {
            case let .collation(name):
                "The collation \(name) is not supported; use i;ascii-casemap, i;octet or i;unicode-casemap."
            case let .invalid(why):
                "The calendar-query filter is not valid: \(why)."
            }
        }
    }

    struct TimeRange: Sendable {
        var start: Date
        var end: Date

        /// `start <= moment < end`: a property's value, a trigger (9.9).
        func holds(_ moment: Date) -> Bool { start <= moment && moment < end }
    }

    struct ParamFilter: Sendable {
        var name: String
        var isNotDefined: Bool
        var textMatch: TextMatch?
    }

    struct PropFilter: Sendable {
        var name: String
        var isNotDefined: Bool
        var timeRange: TimeRange?
        var textMatch: TextMatch?
        var params: [ParamFilter]

        var isBare: Bool { !isNotDefined && timeRange == nil && textMatch == nil && params.isEmpty }
    }

    struct CompFilter: Sendable {
        var name: String
        var isNotDefined: Bool
        var timeRange: TimeRange?
        var props: [PropFilter]
        var comps: [CompFilter]

        var isBare: Bool { !isNotDefined && timeRange == nil && props.isEmpty && comps.isEmpty }
    }

    /// Most filter elements (comp-, prop-, param-filters, text-matches and
    /// time-ranges) one query holds, most text-matches, and most bytes of
    /// one text-match: each is tried on every resource, so these bound a
    /// query's work to a few passes over the list (clients send a handful).
    static let maxNodes = 256, maxTextMatches = 32, maxTextBytes = 4_096

    /// Nil: no filter, every resource.
    private let root: CompFilter?
    /// Where DATE values and floating times are read.
    private let timeZone: TimeZone

    init(_ filter: XMLElement?, timeZone: TimeZone) throws(Problem) {
        self.timeZone = timeZone
        guard let filter else {
            root = nil
            return
        }
        let tops = filter.children(DAV.caldav, "comp-filter")
        guard tops.count == 1, let top = tops.first else { throw .invalid("it must hold one comp-filter named VCALENDAR") }
        guard top.attribute("name")?.uppercased() == "VCALENDAR" else {
            throw .invalid("its outermost comp-filter must be named VCALENDAR")
        }
        var budget = Budget()
        root = try Self.comp(top, &budget)
    }

    /// Whether it keeps every resource, so none needs reading to answer it:
    /// no filter, an empty VCALENDAR one, or one asking only for a VTODO.
    var keepsAll: Bool {
        guard let root else { return true }
        guard !root.isNotDefined, root.timeRange == nil, root.props.isEmpty else { return false }
        return root.comps.allSatisfy { $0.name == "VTODO" && $0.isBare }
    }

    /// Whether the calendar object `calendar` matches.
    func matches(_ calendar: ICalendarComponent) -> Bool {
        guard let root else { return true }
        let zones = ICalendarZones(calendar)
        return matches(root, [calendar], parent: nil, zones: zones)
    }

    // MARK: - Evaluating (9.7.1 to 9.7.3)

    private func matches(_ filter: CompFilter, _ candidates: [ICalendarComponent], parent: ICalendarComponent?, zones: ICalendarZones) -> Bool {
        if filter.isNotDefined { return candidates.isEmpty }
        return candidates.contains { component in
            if let range = filter.timeRange, !overlaps(component, range, parent: parent, zones: zones) { return false }
            return filter.props.allSatisfy { matches($0, component, zones: zones) }
                && filter.comps.allSatisfy { sub in
                    matches(sub, component.components.filter { $0.name == sub.name }, parent: component, zones: zones)
                }
        }
    }

    /// A property's filter over all its lines (as Radicale reads RFC 4791
    /// 9.7.2): a time-range some line's value overlaps, a text-match on the
    /// values of every line together (so a negated one means none holds
    /// it), each param-filter on the parameters of every line together.
    private func matches(_ filter: PropFilter, _ component: ICalendarComponent, zones: ICalendarZones) -> Bool {
        let lines = component.properties(filter.name)
        if filter.isNotDefined { return lines.isEmpty }
        guard !lines.isEmpty else { return false }
        if let range = filter.timeRange, !lines.contains(where: { overlaps($0, range, zones: zones) }) { return false }
        if let match = filter.textMatch, !match.matches(lines.flatMap(Self.values)) { return false }
        return filter.params.allSatisfy { param in
            let values = lines.flatMap { $0.parameters.filter { $0.name.uppercased() == param.name }.flatMap(\.values) }
            let defined = lines.contains { $0.parameters.contains { $0.name.uppercased() == param.name } }
            if param.isNotDefined { return !defined }
            guard defined else { return false }
            return param.textMatch.map { $0.matches(values) } ?? true
        }
    }

    /// The text a text-match reads: the value unescaped; of a list property
    /// (CATEGORIES, RESOURCES), each item.
    static func values(of line: ContentLine) -> [String] {
        if line.is("CATEGORIES") || line.is("RESOURCES") {
            return ICalendarText.list(line.value)
        }
        return [ICalendarText.unescape(line.value[...])]
    }

    // MARK: - Time ranges (9.9)

    private func moment(_ line: ContentLine?, zones: ICalendarZones) -> Date? {
        line.flatMap { VTodo.start(of: $0, timeZone: timeZone, zones: zones) }
    }

    /// A DATE or DATE-TIME property's value in the range: a time in it, a
    /// day that overlaps it.
    private func overlaps(_ line: ContentLine, _ range: TimeRange, zones: ICalendarZones) -> Bool {
        guard let start = moment(line, zones: zones) else { return false }
        if VTodo.isDate(line) { return range.start < nextDay(start) && range.end > start }
        return range.holds(start)
    }

    private func overlaps(_ component: ICalendarComponent, _ range: TimeRange, parent: ICalendarComponent?, zones: ICalendarZones) -> Bool {
        let (start, end) = (range.start, range.end)
        switch component.name {
        case "VTODO":
            let dtstart = moment(component.property("DTSTART"), zones: zones)
            let due = moment(component.property("DUE"), zones: zones)
            let duration = component.property("DURATION").flatMap { VTodo.duration($0.value) }
            let completed = moment(component.property("COMPLETED"), zones: zones)
            let created = moment(component.property("CREATED"), zones: zones)
            if let dtstart {
                if let duration {
                    let finish = dtstart.addingTimeInterval(duration)
                    return start <= finish && (end > dtstart || end >= finish)
                }
                if let due { return (start < due || start <= dtstart) && (end > dtstart || end >= due) }
                return start <= dtstart && end > dtstart
            }
            if let due { return start < due && end >= due }
            if let completed, let created {
                return (start <= created || start <= completed) && (end >= created || end >= completed)
            }
            if let completed { return start <= completed && end >= completed }
            if let created { return end > created }
            return true
        case "VALARM":
            return triggers(component, of: parent, zones: zones).contains(where: range.holds)
        default:
            // An event's rule (9.9): what else a calendar object may hold.
            guard let dtstartLine = component.property("DTSTART"), let dtstart = moment(dtstartLine, zones: zones) else { return false }
            let finish = moment(component.property("DTEND"), zones: zones)
                ?? component.property("DURATION").flatMap { VTodo.duration($0.value) }.map { dtstart.addingTimeInterval($0) }
                ?? (VTodo.isDate(dtstartLine) ? nextDay(dtstart) : nil)
            guard let finish, finish > dtstart else { return start <= dtstart && end > dtstart }
            return start < finish && end > dtstart
        }
    }

    /// The start of the day after the one `start` begins, in the query's
    /// zone: 23 or 25 hours on a day the clocks change.
    private func nextDay(_ start: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
    }

    /// When an alarm rings: its TRIGGER, absolute or after the start (or,
    /// `RELATED=END`, the due time) of the task it is in, and each REPEAT.
    private func triggers(_ alarm: ICalendarComponent, of parent: ICalendarComponent?, zones: ICalendarZones) -> [Date] {
        guard let trigger = alarm.property("TRIGGER") else { return [] }
        let first: Date?
        if let offset = VTodo.duration(trigger.value) {
            let start = moment(parent?.property("DTSTART"), zones: zones)
            let anchor = trigger.parameter("RELATED")?.uppercased() == "END"
                ? moment(parent?.property("DUE") ?? parent?.property("DTEND"), zones: zones)
                ?? start.flatMap { start in parent?.property("DURATION").flatMap { VTodo.duration($0.value) }.map { start.addingTimeInterval($0) } }
                : start
            first = anchor?.addingTimeInterval(offset)
        } else {
            first = moment(trigger, zones: zones)
        }
        guard let first else { return [] }
        let repeats = min(alarm.property("REPEAT").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0, 100)
        guard repeats > 0, let every = alarm.property("DURATION").flatMap({ VTodo.duration($0.value) }), every > 0 else { return [first] }
        return (0...repeats).map { first.addingTimeInterval(Double($0) * every) }
    }
}
