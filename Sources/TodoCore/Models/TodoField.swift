import Foundation

/// A field of a todo that people edit, each merged on its own by sync and
/// named as conflicts show it.
public enum TodoField: String, Sendable, Hashable, CaseIterable, Comparable {
    case text, done, due, priority, tags, note
    case recurrence = "repeat"

    public static func < (lhs: TodoField, rhs: TodoField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The fields people plan with, beyond the text and the done mark.
    public static let planning: [TodoField] = [.due, .priority, .tags, .note, .recurrence]
}

extension FieldTimes {
    public subscript(field: TodoField) -> Date? {
        get {
            switch field {
            case .text: text
            case .done: done
            case .due: due
            case .priority: priority
            case .tags: tags
            case .note: note
            case .recurrence: recurrence
            }
        }
        set {
            let value = newValue?.roundedToMilliseconds
            switch field {
            case .text: text = value
            case .done: done = value
            case .due: due = value
            case .priority: priority = value
            case .tags: tags = value
            case .note: note = value
            case .recurrence: recurrence = value
            }
        }
    }
}

extension TodoItem {
    /// Whether both hold the same value for `field`.
    public func holdsSame(_ field: TodoField, as other: TodoItem) -> Bool {
        switch field {
        case .text: text == other.text
        case .done: isDone == other.isDone
        case .due: due == other.due
        case .priority: priority == other.priority
        case .tags: tags == other.tags
        case .note: note == other.note
        case .recurrence: recurrence == other.recurrence
        }
    }

    /// Takes `field`'s value and its edit time from `other` (with the
    /// completion time, for the done mark).
    public mutating func take(_ field: TodoField, from other: TodoItem) {
        editedAt[field] = other.editedAt[field]
        switch field {
        case .text: text = other.text
        case .done: (isDone, completedAt) = (other.isDone, other.completedAt)
        case .due: due = other.due
        case .priority: priority = other.priority
        case .tags: tags = other.tags
        case .note: note = other.note
        case .recurrence: recurrence = other.recurrence
        }
    }
}
