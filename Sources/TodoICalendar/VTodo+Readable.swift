import Foundation

/// Why a task a client sent could not be read back by clients: a server
/// that stored it would break every app that syncs it.
public enum UnreadableTask: Error, Equatable, Sendable {
    /// A control character other than tab in a property's value or parameter (RFC 5545, 3.1: no CTL but HTAB).
    case controlCharacter(property: String)
    /// A date or date-time property whose value is neither (`DUE:tomorrow-ish`).
    case badDate(property: String, value: String)
    /// A VTODO inside another component than the VCALENDAR.
    case nestedTask
    /// Two VTODOs that are both the series (no RECURRENCE-ID): which is the task?
    case twoSeries

    public var message: String {
        switch self {
        case let .controlCharacter(property):
            "\(property) holds a control character; iCalendar text allows none but tab (RFC 5545, 3.1): remove it."
        case let .badDate(property, value):
            "\(property):\(value.prefix(40)) is not a date (20261224) or a date-time (20261224T100000Z); send one."
        case .nestedTask:
            "The VTODO is nested in another component; send it directly inside the VCALENDAR."
        case .twoSeries:
            "The calendar object holds two VTODOs without RECURRENCE-ID; send one task, its changed occurrences with RECURRENCE-ID."
        }
    }
}

extension VTodo {
    /// The properties a VTODO holds dates in: each must be a DATE or a DATE-TIME.
    static let dateProperties: Set<String> = [
        "DUE", "DTSTART", "COMPLETED", "CREATED", "LAST-MODIFIED", "DTSTAMP", "RECURRENCE-ID",
        waitProperty, untilProperty, scheduledProperty,
    ]

    /// Checks that every client could read `calendar` back, as todo-server
    /// stores it: what a client could not is refused, before anything is stored.
    public static func checkReadable(_ calendar: ICalendarComponent) throws(UnreadableTask) {
        try check(calendar, parent: nil)
        let series = calendar.components.filter { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }
        if series.count > 1 { throw .twoSeries }
    }

    private static func check(_ component: ICalendarComponent, parent: String?) throws(UnreadableTask) {
        if component.name == "VTODO", parent != nil, parent != "VCALENDAR" { throw .nestedTask }
        for entry in component.entries {
            switch entry {
            case let .property(line):
                let controls = line.value.unicodeScalars.contains(where: isForbiddenControl)
                    || line.parameters.contains { $0.values.contains { $0.unicodeScalars.contains(where: isForbiddenControl) } }
                if controls { throw .controlCharacter(property: line.name.uppercased()) }
                if component.name == "VTODO", dateProperties.contains(line.name.uppercased()), !isDateOrDateTime(line.value) {
                    throw .badDate(property: line.name.uppercased(), value: line.value)
                }
            case let .component(child):
                try check(child, parent: component.name)
            }
        }
    }

    /// A control character (C0 or DEL) other than tab.
    private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }

    /// `YYYYMMDD` or `YYYYMMDDTHHMMSS` with an optional `Z` (RFC 5545, 3.3.4
    /// and 3.3.5), a real day and time: the zone is not resolved here.
    static func isDateOrDateTime(_ text: String) -> Bool {
        let bytes = Array(text.trimmedASCIIWhitespace.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let month = number(4..<6), let day = number(6..<8), number(0..<4) != nil, (1...12).contains(month), (1...31).contains(day) else {
            return false
        }
        if bytes.count == 8 { return true }
        guard bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")), bytes[8] == UInt8(ascii: "T"),
              let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15) else { return false }
        // 60: a leap second, which RFC 5545 allows.
        return hour < 24 && minute < 60 && second <= 60
    }
}
