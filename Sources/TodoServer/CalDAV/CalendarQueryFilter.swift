import Foundation
import TodoCore
import TodoICalendar
import TodoXML

/// What a calendar-query's filter keeps (RFC 4791, 9.7): the VTODO
/// component, and on it `is-not-defined` and `time-range` of COMPLETED or
/// DUE, as task apps send them. A filter on another component keeps nothing.
struct CalendarQueryFilter {
    private var keepsNothing = false
    private var undefined: Set<String> = []
    /// Time ranges: on a prop-filter the property must be there; on the
    /// VTODO itself a task without DUE overlaps every range (RFC 4791, 9.9).
    private var ranges: [(property: String, start: Date?, end: Date?, needsProperty: Bool)] = []

    init(_ filter: XMLElement?) {
        guard let calendar = filter?.child(DAV.caldav, "comp-filter") else { return }
        guard calendar.attribute("name")?.uppercased() == "VCALENDAR" else { keepsNothing = true; return }
        let components = calendar.children(DAV.caldav, "comp-filter")
        if components.contains(where: { $0.attribute("name")?.uppercased() != "VTODO" }) { keepsNothing = true }
        for todo in components where todo.attribute("name")?.uppercased() == "VTODO" {
            if todo.child(DAV.caldav, "is-not-defined") != nil { keepsNothing = true }
            if let range = todo.child(DAV.caldav, "time-range") {
                ranges.append(("DUE", Self.date(range.attribute("start")), Self.date(range.attribute("end")), false))
            }
            for property in todo.children(DAV.caldav, "prop-filter") {
                let name = property.attribute("name")?.uppercased() ?? ""
                if property.child(DAV.caldav, "is-not-defined") != nil { undefined.insert(name) }
                if let range = property.child(DAV.caldav, "time-range") {
                    ranges.append((name, Self.date(range.attribute("start")), Self.date(range.attribute("end")), true))
                }
            }
        }
    }

    /// Whether it keeps every VTODO, so no todo needs reading to answer it.
    var keepsAll: Bool { !keepsNothing && undefined.isEmpty && ranges.isEmpty }

    func matches(_ fields: VTodoFields) -> Bool {
        guard !keepsNothing else { return false }
        if undefined.contains("COMPLETED"), fields.isDone { return false }
        if undefined.contains("DUE"), fields.due != nil { return false }
        for range in ranges {
            let moment: Date? = switch range.property {
            case "COMPLETED": fields.completedAt
            default: fields.due.map { due in
                if case let .moment(date) = due { return date }
                return ISO8601.date(from: due.text + "T00:00:00.000Z") ?? Date(timeIntervalSince1970: 0)
            }
            }
            guard let moment else {
                if range.needsProperty { return false }
                continue
            }
            if let start = range.start, moment < start { return false }
            if let end = range.end, moment >= end { return false }
        }
        return true
    }

    private static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        return VTodo.dateTime(text)
    }
}
