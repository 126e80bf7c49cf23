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
        case .recurrence: RepeatWords.summary
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

    /// The date fields `todo add` and `todo edit` set by an option
    /// (`--due`, `--wait`…), the due date first; the start has commands of
    /// its own (`todo start`, `todo stop`).
    public static let datesWithOptions = allCases.filter { $0.kind == .date && $0 != .start }

    /// The dates that move with the due date to a repeat's next occurrence,
    /// as many days as it moved (`TodoDatesHolding.moveDates(byDays:in:)`):
    /// the until date and the start stay.
    public static let datesMovingWithDue: [TodoField] = [.due, .wait, .scheduled]

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
