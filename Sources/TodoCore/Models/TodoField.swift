import Foundation

/// A field of a todo that people edit, each merged on its own by sync and
/// named as conflicts show it.
public enum TodoField: String, Sendable, Hashable, CaseIterable, Comparable {
    case text, done, due, priority, tags, note
    case recurrence = "repeat"
    case project, wait, scheduled, until
    case parent, blockedBy

    public static func < (lhs: TodoField, rhs: TodoField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The fields people plan with, beyond the text and the done mark.
    public static let planning: [TodoField] = [.due, .priority, .tags, .note, .recurrence, .project, .wait, .scheduled, .until, .parent, .blockedBy]
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
            case .project: project
            case .wait: wait
            case .scheduled: scheduled
            case .until: until
            case .parent: parent
            case .blockedBy: blockedBy
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
            case .project: project = value
            case .wait: wait = value
            case .scheduled: scheduled = value
            case .until: until = value
            case .parent: parent = value
            case .blockedBy: blockedBy = value
            }
        }
    }
}

/// The values of a todo's fields, wherever they are held: a todo, or what
/// sync carries to and from a server. Compared field by field alike.
public protocol TodoFieldValues {
    var text: String { get }
    var isDone: Bool { get }
    var due: TodoDue? { get }
    var priority: TodoPriority? { get }
    var tags: [String] { get }
    var note: String? { get }
    var recurrence: TodoRepeat? { get }
    var project: String? { get }
    var wait: TodoDue? { get }
    var scheduled: TodoDue? { get }
    var until: TodoDue? { get }
    var parent: UUID? { get }
    var blockedBy: [UUID] { get }
}

extension TodoFieldValues {
    /// Whether both hold the same value for `field`.
    public func holdsSame(_ field: TodoField, as other: some TodoFieldValues) -> Bool {
        switch field {
        case .text: text == other.text
        case .done: isDone == other.isDone
        case .due: due == other.due
        case .priority: priority == other.priority
        case .tags: tags == other.tags
        case .note: note == other.note
        case .recurrence: recurrence == other.recurrence
        case .project: project == other.project
        case .wait: wait == other.wait
        case .scheduled: scheduled == other.scheduled
        case .until: until == other.until
        case .parent: parent == other.parent
        case .blockedBy: blockedBy == other.blockedBy
        }
    }

    /// A field's value as text, as conflicts show it ("" for none).
    public subscript(field: TodoField) -> String {
        switch field {
        case .text: text
        case .done: isDone ? "true" : "false"
        case .due: due?.text ?? ""
        case .priority: priority?.rawValue ?? ""
        case .tags: tags.joined(separator: " ")
        case .note: note ?? ""
        case .recurrence: recurrence?.description ?? ""
        case .project: project ?? ""
        case .wait: wait?.text ?? ""
        case .scheduled: scheduled?.text ?? ""
        case .until: until?.text ?? ""
        case .parent: parent?.lowercasedString ?? ""
        case .blockedBy: blockedBy.map(\.lowercasedString).joined(separator: " ")
        }
    }
}

extension TodoItem: TodoFieldValues {
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
        case .project: project = other.project
        case .wait: wait = other.wait
        case .scheduled: scheduled = other.scheduled
        case .until: until = other.until
        case .parent: parent = other.parent
        case .blockedBy: blockedBy = other.blockedBy
        }
    }
}
