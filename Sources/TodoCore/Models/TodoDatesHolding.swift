import Foundation

/// Anything that holds a todo's dates under their fields' names: a todo and
/// sync's fields (`TodoFieldValues`), a VTODO's fields (each a `TodoDue?`),
/// an edit (each a `TodoDue??`: leave, clear or set). Which property holds
/// which date field is said once, here.
public protocol TodoDatesHolding {
    associatedtype DateValue
    var due: DateValue { get set }
    var wait: DateValue { get set }
    var scheduled: DateValue { get set }
    var until: DateValue { get set }
    var start: DateValue { get set }
}

extension TodoDatesHolding {
    /// The property that holds `field`, a field of the date kind
    /// (`FieldKind.date`); nil for the others.
    public static func path(ofDate field: TodoField) -> WritableKeyPath<Self, DateValue>? {
        switch field {
        case .due: \.due
        case .wait: \.wait
        case .scheduled: \.scheduled
        case .until: \.until
        case .start: \.start
        default: nil
        }
    }
}

extension TodoDatesHolding where DateValue == TodoDue? {
    /// The date a field of the date kind holds (nil for the others).
    public func date(_ field: TodoField) -> TodoDue? {
        Self.path(ofDate: field).flatMap { self[keyPath: $0] }
    }

    /// Moves the dates a repeat carries along (`TodoField.datesMovingWithDue`)
    /// `days` days on, each keeping its time of day in `timeZone`.
    public mutating func moveDates(byDays days: Int, in timeZone: TimeZone) {
        for field in TodoField.datesMovingWithDue {
            guard let path = Self.path(ofDate: field) else { continue }
            self[keyPath: path] = self[keyPath: path].map { $0.moved(to: $0.day(in: timeZone).adding(days: days), in: timeZone) }
        }
    }
}
