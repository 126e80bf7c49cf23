import Foundation

/// When each field of a todo was last edited, on the machine where the edit
/// was made; nil: never edited since the todo was created.
///
/// A field keeps the time of the edit that gave it its value: sync settles
/// two edits of one field by these times (the later wins), and an edit always
/// beats a value nobody edited, so two copies of one todo made independently
/// (the next occurrence of a repeating todo, completed on two machines) merge
/// with each side's edits kept.
public struct FieldTimes: Sendable, Hashable {
    public var text: Date?
    public var done: Date?
    public var due: Date?
    public var priority: Date?
    public var tags: Date?
    public var note: Date?
    public var recurrence: Date?

    public init(
        text: Date? = nil, done: Date? = nil, due: Date? = nil, priority: Date? = nil, tags: Date? = nil,
        note: Date? = nil, recurrence: Date? = nil
    ) {
        self.text = text?.roundedToMilliseconds
        self.done = done?.roundedToMilliseconds
        self.due = due?.roundedToMilliseconds
        self.priority = priority?.roundedToMilliseconds
        self.tags = tags?.roundedToMilliseconds
        self.note = note?.roundedToMilliseconds
        self.recurrence = recurrence?.roundedToMilliseconds
    }

    /// The latest of them, if any.
    public var latest: Date? {
        [text, done, due, priority, tags, note, recurrence].lazy.compactMap { $0 }.max()
    }

    /// Each field `old` and `new` hold differently stamped as edited at `date`.
    mutating func stamp(changesFrom old: TodoItem, to new: TodoItem, at date: Date) {
        for field in TodoField.allCases where !old.holdsSame(field, as: new) { stamp(field, at: date) }
    }

    /// `field` stamped as edited at `date`, or just after the edit it holds
    /// if that is later: an edit made after another was seen is later than
    /// it, even on a machine whose clock runs behind the one that made it.
    mutating func stamp(_ field: TodoField, at date: Date) {
        let held = self[field].map { $0.addingTimeInterval(0.001) } ?? .distantPast
        self[field] = max(date, held)
    }
}
