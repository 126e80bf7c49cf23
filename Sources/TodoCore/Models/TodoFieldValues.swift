import Foundation

/// A field's value in the form a todo's JSON writes it: text, a flag, a
/// list of texts (tags, blockers' ids) or nothing. Storage and the wire
/// formats start from this form.
public enum FieldValue: Sendable, Hashable {
    case none
    case flag(Bool)
    case text(String)
    case list([String])

    /// As conflicts show it ("" for none).
    public var description: String {
        switch self {
        case .none: ""
        case let .flag(flag): flag ? "true" : "false"
        case let .text(text): text
        case let .list(list): list.joined(separator: " ")
        }
    }

    /// Whether it holds nothing: none, or an empty list.
    public var isEmpty: Bool {
        switch self {
        case .none: true
        case let .list(list): list.isEmpty
        case .flag, .text: false
        }
    }
}

/// The values of a todo's fields, wherever they are held: a todo, or what
/// sync carries to and from a server. Compared, read and set field by field
/// alike.
public protocol TodoFieldValues: PlanHolding, TodoDatesHolding where DateValue == TodoDue? {
    var text: String { get set }
    var isDone: Bool { get set }
    var priority: TodoPriority? { get set }
    var tags: [String] { get set }
    var note: String? { get set }
    var recurrence: TodoRepeat? { get set }
}

extension TodoFieldValues {
    /// `field`'s value, in JSON's form.
    public subscript(value field: TodoField) -> FieldValue {
        func optional(_ text: String?) -> FieldValue { text.map(FieldValue.text) ?? .none }
        return switch field {
        case .text: .text(text)
        case .done: .flag(isDone)
        case .due: optional(due?.text)
        case .priority: optional(priority?.rawValue)
        case .tags: .list(tags)
        case .note: optional(note)
        case .recurrence: optional(recurrence?.description)
        case .project: optional(project)
        case .wait: optional(wait?.text)
        case .scheduled: optional(scheduled?.text)
        case .until: optional(until?.text)
        case .parent: optional(parent?.lowercasedString)
        case .blockedBy: .list(blockedBy.map(\.lowercasedString))
        case .start: optional(start?.text)
        }
    }

    /// Sets `field` from a value in JSON's form; false, and the field left
    /// empty, if the value is not one of that field (a date that is no date,
    /// a flag for a text). Reads as stored: tags are taken as given.
    @discardableResult
    public mutating func set(_ field: TodoField, to value: FieldValue) -> Bool {
        // An empty plan field of a todo with no plan: nothing to box.
        if field.isPlanned, planBox == nil, value.isEmpty { return true }
        let text: String?
        switch value {
        case .none: text = nil
        case let .text(value): text = value
        case let .flag(flag):
            guard field == .done else { clear(field); return false }
            isDone = flag
            return true
        case let .list(list):
            switch field {
            case .tags: tags = list
            case .blockedBy:
                let ids = list.compactMap(UUID.init(parsing:))
                blockedBy = ids
                return ids.count == list.count
            default: clear(field); return false
            }
            return true
        }
        func read<Value>(_ parse: (String) -> Value?) -> (Value?, Bool) {
            guard let text else { return (nil, true) }
            let value = parse(text)
            return (value, value != nil)
        }
        let valid: Bool
        switch field {
        case .text: (self.text, valid) = (text ?? "", text != nil)
        case .done: (isDone, valid) = (false, false)
        case .due: (due, valid) = read(TodoDue.init(text:))
        case .priority: (priority, valid) = read(TodoPriority.init(parsing:))
        case .tags: (tags, valid) = ([], text == nil)
        case .note: (note, valid) = (text, true)
        case .recurrence: (recurrence, valid) = read(TodoRepeat.init(parsing:))
        case .project: (project, valid) = (text, true)
        case .wait: (wait, valid) = read(TodoDue.init(text:))
        case .scheduled: (scheduled, valid) = read(TodoDue.init(text:))
        case .until: (until, valid) = read(TodoDue.init(text:))
        case .parent: (parent, valid) = read(UUID.init(parsing:))
        case .blockedBy: (blockedBy, valid) = ([], text == nil)
        case .start: (start, valid) = read(TodoDue.init(text:))
        }
        return valid
    }

    private mutating func clear(_ field: TodoField) {
        set(field, to: field == .tags || field == .blockedBy ? .list([]) : .none)
    }

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
        case .start: start == other.start
        }
    }

    /// A field's value as text, as conflicts show it ("" for none).
    public subscript(field: TodoField) -> String { self[value: field].description }

    /// The fields that hold a value: the text and the done mark always.
    public var fieldsInUse: Set<TodoField> {
        Set(TodoField.allCases.filter { $0 == .text || $0 == .done || !self[value: $0].isEmpty })
    }
}

extension TodoItem: TodoFieldValues {
    /// Takes `field`'s value and its edit time from `other` (with the
    /// completion time, for the done mark).
    public mutating func take(_ field: TodoField, from other: TodoItem) {
        editedAt[field] = other.editedAt[field]
        if field == .done {
            (isDone, completedAt) = (other.isDone, other.completedAt)
        } else {
            set(field, to: other[value: field])
        }
    }
}
