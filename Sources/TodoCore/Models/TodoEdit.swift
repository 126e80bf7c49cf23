import Foundation

/// The fields a todo is created or edited with, beyond its text: each nil
/// means "leave as it is"; a field set to `.some(nil)` is cleared.
public struct TodoEdit: Sendable, Hashable {
    public var text: String?
    public var due: TodoDue??
    public var priority: TodoPriority??
    public var addTags: [String]
    public var removeTags: [String]
    public var note: String??
    public var recurrence: TodoRepeat??

    public init(
        text: String? = nil, due: TodoDue?? = nil, priority: TodoPriority?? = nil,
        addTags: [String] = [], removeTags: [String] = [], note: String?? = nil, recurrence: TodoRepeat?? = nil
    ) {
        self.text = text
        self.due = due
        self.priority = priority
        self.addTags = addTags
        self.removeTags = removeTags
        self.note = note
        self.recurrence = recurrence
    }

    /// Nothing to change.
    public var isEmpty: Bool {
        text == nil && due == nil && priority == nil && addTags.isEmpty && removeTags.isEmpty
            && note == nil && recurrence == nil
    }
}

extension TodoItem {
    /// This todo with `edit` applied at `date`, checked: text, tags and note
    /// by their rules, and a repeat only with a due date.
    public func applying(_ edit: TodoEdit, at date: Date) throws(TodoError) -> TodoItem {
        var item = self
        do {
            if let text = edit.text { item.text = try TodoText.validated(text) }
            if let due = edit.due { item.due = due.map(Self.rounded) }
            if let priority = edit.priority { item.priority = priority }
            if !edit.addTags.isEmpty || !edit.removeTags.isEmpty {
                var tags = Set(item.tags)
                for tag in edit.removeTags {
                    let tag = try TodoTags.validated(tag)
                    guard tags.remove(tag) != nil || edit.addTags.contains(tag) else {
                        throw TodoFieldError.noSuchTag(tag, tags: item.tags)
                    }
                }
                for tag in edit.addTags { tags.insert(try TodoTags.validated(tag)) }
                item.tags = TodoTags.normalized(tags)
            }
            if let note = edit.note { item.note = try note.flatMap { raw throws(TodoFieldError) in try TodoNote.validated(raw) } }
            if let recurrence = edit.recurrence { item.recurrence = recurrence }
            if let violation = item.ruleViolation { throw violation }
        } catch let error as TodoFieldError {
            throw .invalidField(error)
        } catch let error as TodoError {
            throw error
        } catch {
            throw .failed(String(describing: error))
        }
        return stamping(item, at: date)
    }

    private static func rounded(_ due: TodoDue) -> TodoDue {
        if case let .moment(date) = due { .moment(date.roundedToMilliseconds) } else { due }
    }
}

// MARK: - Recurrence

extension TodoItem {
    /// The todo that follows this one once it is completed at `date`, if it
    /// repeats: the same text, tags, priority, note and repeat, due at the
    /// next occurrence (`TodoRepeat.next(after:completedOn:in:)`), created at `date`.
    ///
    /// Its id is derived from this todo's id, so two machines that complete
    /// the same occurrence (on any day) create the same next todo, and a sync
    /// finds one todo where a random id would have made two.
    public func nextOccurrence(at date: Date, in timeZone: TimeZone) -> TodoItem? {
        guard let recurrence, let due else { return nil }
        let nextDue = recurrence.next(after: due, completedOn: CalendarDay(date, in: timeZone), in: timeZone)
        return TodoItem(
            // Not the due date: machines completing it on different days make one todo.
            id: UUID(derivedFrom: "repeat|" + idString),
            text: text, createdAt: date, due: nextDue, priority: priority, tags: tags, note: note,
            recurrence: recurrence
        )
    }
}
