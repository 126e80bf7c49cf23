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
    public var project: String??
    public var wait: TodoDue??
    public var scheduled: TodoDue??
    public var until: TodoDue??

    public init(
        text: String? = nil, due: TodoDue?? = nil, priority: TodoPriority?? = nil,
        addTags: [String] = [], removeTags: [String] = [], note: String?? = nil, recurrence: TodoRepeat?? = nil,
        project: String?? = nil, wait: TodoDue?? = nil, scheduled: TodoDue?? = nil, until: TodoDue?? = nil
    ) {
        self.text = text
        self.due = due
        self.priority = priority
        self.addTags = addTags
        self.removeTags = removeTags
        self.note = note
        self.recurrence = recurrence
        self.project = project
        self.wait = wait
        self.scheduled = scheduled
        self.until = until
    }

    /// Nothing to change.
    public var isEmpty: Bool {
        text == nil && due == nil && priority == nil && addTags.isEmpty && removeTags.isEmpty
            && note == nil && recurrence == nil && project == nil && wait == nil && scheduled == nil && until == nil
    }
}

extension TodoItem {
    /// This todo with `edit` applied at `date`, checked: text, tags and note
    /// by their rules, and a repeat only with a due date.
    public func applying(_ edit: TodoEdit, at date: Date) throws(TodoError) -> TodoItem {
        var item = self
        do {
            if let text = edit.text { item.text = try TodoText.validated(text) }
            if let due = edit.due { item.due = due?.roundedToMilliseconds }
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
            if let project = edit.project { item.project = try project.map { raw throws(TodoFieldError) in try TodoProject.validated(raw) } }
            if let wait = edit.wait { item.wait = wait?.roundedToMilliseconds }
            if let scheduled = edit.scheduled { item.scheduled = scheduled?.roundedToMilliseconds }
            if let until = edit.until { item.until = until?.roundedToMilliseconds }
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
}

// MARK: - Recurrence

extension TodoItem {
    /// Whether `due` comes after `until`: by days, or by moments where
    /// `until` has a time (a day due starts at its midnight).
    static func isPast(_ until: TodoDue, _ due: TodoDue, in timeZone: TimeZone) -> Bool {
        guard case let .moment(end) = until else { return due.day(in: timeZone) > until.day(in: timeZone) }
        switch due {
        case let .day(day): return day.start(in: timeZone) > end
        case let .moment(date): return date > end
        }
    }

    /// The todo that follows this one once it is completed at `date`, if it
    /// repeats: the same text, tags, priority, note, project, repeat and
    /// until, due at the next occurrence (`TodoRepeat.next(after:completedOn:in:)`),
    /// its wait and scheduled dates moved as many days as its due date,
    /// created at `date`. None once the next due date is past `until`.
    ///
    /// Its id is derived from this todo's id, so two machines that complete
    /// the same occurrence (on any day) create the same next todo, and a sync
    /// finds one todo where a random id would have made two.
    public func nextOccurrence(at date: Date, in timeZone: TimeZone) -> TodoItem? {
        guard let recurrence, let due else { return nil }
        let nextDue = recurrence.next(after: due, completedOn: CalendarDay(date, in: timeZone), in: timeZone)
        if let until, Self.isPast(until, nextDue, in: timeZone) { return nil }
        let shift = nextDue.day(in: timeZone).daysSince1970 - due.day(in: timeZone).daysSince1970
        func moved(_ other: TodoDue?) -> TodoDue? {
            other.map { $0.moved(to: $0.day(in: timeZone).adding(days: shift), in: timeZone) }
        }
        return TodoItem(
            // Not the due date: machines completing it on different days make one todo.
            id: UUID(derivedFrom: "repeat|" + idString),
            text: text, createdAt: date, due: nextDue, priority: priority, tags: tags, note: note,
            recurrence: recurrence, project: project, wait: moved(wait), scheduled: moved(scheduled), until: until
        )
    }
}
