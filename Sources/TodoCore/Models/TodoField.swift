import Foundation

/// A field of a todo that people edit, each merged on its own by sync and
/// named as conflicts show it.
///
/// This is the one description of the fields: the database's column lists
/// and row codec, the JSON codec (export, MCP, the server, sync's push),
/// sync's bases and the CalDAV mapping of what has no VTODO property are all
/// made from it. Adding a field is a case here (with its place in the table
/// below), its property on the model (`TodoItem`, or `TodoPlan` for a field
/// most todos leave empty), a migration, and the places that give it meaning:
/// its option, its filter, its urgency term.
public enum TodoField: String, Sendable, Hashable, CaseIterable, Comparable {
    case text, done, due, priority, tags, note
    case recurrence = "repeat"
    case project, wait, scheduled, until
    case parent, blockedBy
    /// When work on it began (Taskwarrior's `start`): set, it is active.
    case start

    public static func < (lhs: TodoField, rhs: TodoField) -> Bool { lhs.rawValue < rhs.rawValue }
}

// MARK: - The table

extension TodoField {
    /// Its key in a todo's JSON (`export`, MCP, the server's API, the
    /// CalDAV mapping's X- property) and its name in conflicts.
    public var key: String { rawValue }

    /// Its key on a sync server's API (SYNC.md: json-server's todos, and
    /// todo-server's): `title`, `completed` and `dueDate`, the others as `key`.
    public var apiKey: String {
        switch self {
        case .text: "title"
        case .done: "completed"
        case .due: "dueDate"
        default: key
        }
    }

    /// The key of when it was last edited, on a sync server's API:
    /// `textEditedAt` and `doneEditedAt`, the others `apiKey` + `EditedAt`.
    public var apiEditedAtKey: String {
        switch self {
        case .text, .done: key + "EditedAt"
        default: apiKey + "EditedAt"
        }
    }

    /// What it holds, in a sentence for a schema (MCP's): nil where its
    /// name says it all.
    public var summary: String? {
        switch self {
        case .text, .done, .tags, .note: nil
        case .due: "A date (2026-12-01) or a moment (ISO 8601, UTC)."
        case .priority: "high, medium or low."
        case .recurrence: "daily, weekly, monthly, yearly, or 3d, 2w, 6m, 1y: every N days, weeks, months or years."
        case .project: "Names joined by dots, the widest first: home.garden."
        case .wait: "Hidden from lists until then: a date or a moment."
        case .scheduled: "When to start on it: a date or a moment."
        case .until: "The last date it applies: a date or a moment."
        case .parent: "The UUID of the todo it is a subtask of."
        case .blockedBy: "The UUIDs of the todos that must be done first."
        case .start: "When work on it began (todo start), a moment: set, it is active."
        }
    }

    /// The column of `todo` (and of sync's bases) that holds it.
    public var column: String {
        switch self {
        case .done: "isDone"
        case .recurrence: "recurrence"
        default: rawValue
        }
    }

    /// The column that holds when it was last edited (`FieldTimes`).
    public var editedAtColumn: String {
        switch self {
        case .recurrence: "recurrenceEditedAt"
        default: rawValue + "EditedAt"
        }
    }

    /// Whether the plan holds it (`TodoPlan`): a field most todos leave
    /// empty, boxed in memory, its columns (added by a later migration)
    /// written only for todos that have a plan, and journaled by undo apart.
    public var isPlanned: Bool { place.isPlanned }

    /// Its place among the fields outside the plan, or among the plan's:
    /// where `FieldTimes` keeps its edit time.
    var slot: Int { place.slot }

    private var place: (isPlanned: Bool, slot: Int) {
        switch self {
        case .text: (false, 0)
        case .done: (false, 1)
        case .due: (false, 2)
        case .priority: (false, 3)
        case .tags: (false, 4)
        case .note: (false, 5)
        case .recurrence: (false, 6)
        case .project: (true, 0)
        case .wait: (true, 1)
        case .scheduled: (true, 2)
        case .until: (true, 3)
        case .parent: (true, 4)
        case .blockedBy: (true, 5)
        case .start: (true, 6)
        }
    }

    /// The plan's dates a todo's details show, in the order shown (when to
    /// start on it, when it shows, when it ends), each under `label`.
    public static let detailDates: [TodoField] = [.scheduled, .wait, .until]

    /// Its name as a todo's details show it: `Scheduled`.
    public var label: String { key.prefix(1).uppercased() + key.dropFirst() }

    /// What kind of value it holds: how a value written elsewhere is read.
    public var kind: FieldKind {
        switch self {
        case .text: .text
        case .done: .flag
        case .due, .wait, .scheduled, .until, .start: .date
        case .priority: .priority
        case .tags: .tags
        case .note: .note
        case .recurrence: .recurrence
        case .project: .project
        case .parent: .todo
        case .blockedBy: .todos
        }
    }

    /// Its place in `allCases`: the fields outside the plan come first.
    public var index: Int { isPlanned ? place.slot + TodoField.unplanned.count : place.slot }

    /// Whether sync merges it element by element, as a set (the others:
    /// the later edit wins).
    public var mergesAsSet: Bool { self == .tags || self == .blockedBy }

    /// The fields every todo has columns for from the first schema on.
    public static let unplanned = allCases.filter { !$0.isPlanned }

    /// The plan's fields (`TodoPlan`).
    public static let planned = allCases.filter(\.isPlanned)

    /// The fields people plan with, beyond the text and the done mark.
    public static let planning = allCases.filter { $0 != .text && $0 != .done }

}

/// The kinds of value a field holds.
public enum FieldKind: Sendable, Hashable {
    /// One line of text (`TodoText`).
    case text
    /// Done or not.
    case flag
    /// A day or a moment (`TodoDue`).
    case date
    case priority
    /// Distinct, sorted words (`TodoTags`).
    case tags
    /// Free text, several lines (`TodoNote`).
    case note
    case recurrence
    /// Dot-separated words, the widest first (`TodoProject`).
    case project
    /// Another todo's id, or several.
    case todo, todos
}

// MARK: - Values

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
