/// Why bytes are not an iCalendar object this codec reads.
public enum ICalendarError: Error, Equatable, Sendable {
    /// Nothing that starts with `BEGIN:`.
    case notICalendar
    /// A line that is not UTF-8 text.
    case notUTF8(line: Int)
    /// A line that is not `NAME;PARAM=value:VALUE`.
    case malformedLine(line: Int)
    /// An `END` that closes no open component, or a component never closed.
    case unbalanced(line: Int)
    /// Lines after the top-level component ended.
    case afterEnd(line: Int)
    /// Components nested deeper than the limit.
    case tooDeep(limit: Int)

    /// What was wrong, in one line, for a person or a 4xx answer.
    public var message: String {
        switch self {
        case .notICalendar: "The body is not iCalendar: it has no BEGIN:VCALENDAR; send a VCALENDAR holding one VTODO."
        case let .notUTF8(line): "Line \(line) of the iCalendar body is not UTF-8; send UTF-8 text."
        case let .malformedLine(line): "Line \(line) of the iCalendar body is not a content line (NAME:VALUE); check its escaping and folding."
        case let .unbalanced(line): "The iCalendar body's BEGIN and END lines do not match (line \(line)); close each component with its END."
        case let .afterEnd(line): "The iCalendar body goes on after its END:VCALENDAR (line \(line)); send one VCALENDAR."
        case let .tooDeep(limit): "The iCalendar body nests components more than \(limit) deep."
        }
    }
}
