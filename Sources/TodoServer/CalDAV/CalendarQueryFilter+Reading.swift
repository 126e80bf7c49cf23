import Foundation
import TodoICalendar
import TodoXML

extension CalendarQueryFilter {
    // MARK: - Reading the filter

    /// What a query's filter may still hold, counted as it is read.
    struct Budget {
        var nodes = 0, textMatches = 0

        mutating func count(_ text: Bool = false) throws(Problem) {
            nodes += 1
            if text { textMatches += 1 }
            guard nodes <= CalendarQueryFilter.maxNodes, textMatches <= CalendarQueryFilter.maxTextMatches else {
                throw .invalid("it holds more than \(CalendarQueryFilter.maxNodes) filters or \(CalendarQueryFilter.maxTextMatches) text-matches")
            }
        }
    }

    static func comp(_ element: XMLElement, _ budget: inout Budget) throws(Problem) -> CompFilter {
        try budget.count()
        guard let name = element.attribute("name")?.uppercased(), !name.isEmpty else { throw .invalid("a comp-filter has no name") }
        var props: [PropFilter] = []
        var comps: [CompFilter] = []
        for child in element.children where child.namespace == DAV.caldav {
            if child.name == "prop-filter" { props.append(try prop(child, &budget)) }
            if child.name == "comp-filter" { comps.append(try comp(child, &budget)) }
        }
        return CompFilter(
            name: name, isNotDefined: element.child(DAV.caldav, "is-not-defined") != nil,
            timeRange: try element.child(DAV.caldav, "time-range").map { element throws(Problem) in try range(element, &budget) },
            props: props, comps: comps
        )
    }

    static func prop(_ element: XMLElement, _ budget: inout Budget) throws(Problem) -> PropFilter {
        try budget.count()
        guard let name = element.attribute("name")?.uppercased(), !name.isEmpty else { throw .invalid("a prop-filter has no name") }
        var params: [ParamFilter] = []
        for child in element.children(DAV.caldav, "param-filter") {
            try budget.count()
            guard let name = child.attribute("name")?.uppercased(), !name.isEmpty else { throw .invalid("a param-filter has no name") }
            params.append(ParamFilter(
                name: name, isNotDefined: child.child(DAV.caldav, "is-not-defined") != nil,
                textMatch: try child.child(DAV.caldav, "text-match").map { element throws(Problem) in try text(element, &budget) }
            ))
        }
        return PropFilter(
            name: name, isNotDefined: element.child(DAV.caldav, "is-not-defined") != nil,
            timeRange: try element.child(DAV.caldav, "time-range").map { element throws(Problem) in try range(element, &budget) },
            textMatch: try element.child(DAV.caldav, "text-match").map { element throws(Problem) in try text(element, &budget) },
            params: params
        )
    }

    static func text(_ element: XMLElement, _ budget: inout Budget) throws(Problem) -> TextMatch {
        try budget.count(true)
        guard element.text.utf8.count <= maxTextBytes else { throw .invalid("a text-match holds more than \(maxTextBytes) bytes") }
        let name = element.attribute("collation") ?? TextMatch.Collation.asciiCasemap.rawValue
        guard let collation = TextMatch.Collation(rawValue: name) else { throw .collation(name) }
        let kindName = element.attribute("match-type") ?? TextMatch.Kind.contains.rawValue
        guard let kind = TextMatch.Kind(rawValue: kindName) else { throw .invalid("the match-type \(kindName) is not one of equals, contains, starts-with, ends-with") }
        let negate = element.attribute("negate-condition")?.lowercased() == "yes"
        return TextMatch(text: TextMatch.folded(element.text, collation), collation: collation, negate: negate, kind: kind)
    }

    static func range(_ element: XMLElement, _ budget: inout Budget) throws(Problem) -> TimeRange {
        try budget.count()
        let start = element.attribute("start"), end = element.attribute("end")
        guard start != nil || end != nil else { throw .invalid("a time-range needs a start or an end") }
        func moment(_ text: String?, _ name: String) throws(Problem) -> Date? {
            guard let text else { return nil }
            guard let date = VTodo.dateTime(text) else { throw .invalid("the time-range \(name) \(text.prefix(40)) is not a UTC date-time (20261201T000000Z)") }
            return date
        }
        let range = TimeRange(start: try moment(start, "start") ?? .distantPast, end: try moment(end, "end") ?? .distantFuture)
        guard range.start < range.end else { throw .invalid("a time-range ends before it starts") }
        return range
    }
}
