import Foundation

/// The fields a todo is created or edited with, beyond its text: each nil
/// means "leave as it is"; a field set to `.some(nil)` is cleared.
public struct TodoEdit: Sendable, Hashable, TodoDatesHolding {
    public var text: String?
    public var due: TodoDue??
    public var priority: TodoPriority??
    public var addTags: [String]
    public var removeTags: [String]
    public var note: String??
    public var recurrence: TodoRepeat??
    /// The repeat (the one given, else the todo's) ending after this many
    /// occurrences, this one counted (`--count`).
    public var repeatCount: Int?
    /// The repeat (the one given, else the todo's) counted from the day it
    /// is done (`--from-completion`).
    public var countsFromCompletion = false
    public var project: String??
    public var wait: TodoDue??
    public var scheduled: TodoDue??
    public var until: TodoDue??
    /// The todo to become a subtask of, as an ID or a prefix of one (none:
    /// no parent); `TodoLogic` resolves prefixes to whole IDs before applying.
    public var parent: String??
    /// Todos to add to, and take from, the todos that block this one; IDs
    /// or prefixes, as `parent`.
    public var addBlockers: [String]
    public var removeBlockers: [String]
    /// When work on it began (`todo start`); none: stopped (`todo stop`).
    public var start: TodoDue??

    public init(
        text: String? = nil, due: TodoDue?? = nil, priority: TodoPriority?? = nil,
        addTags: [String] = [], removeTags: [String] = [], note: String?? = nil, recurrence: TodoRepeat?? = nil,
        project: String?? = nil, wait: TodoDue?? = nil, scheduled: TodoDue?? = nil, until: TodoDue?? = nil,
        parent: String?? = nil, addBlockers: [String] = [], removeBlockers: [String] = [], start: TodoDue?? = nil
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
        self.parent = parent
        self.addBlockers = addBlockers
        self.removeBlockers = removeBlockers
        self.start = start
    }

    /// The date a date field (`FieldKind.date`) is set to: nil to leave
    /// it, `.some(nil)` to clear it.
    public subscript(date field: TodoField) -> TodoDue?? {
        get { Self.path(ofDate: field).map { self[keyPath: $0] } ?? nil }
        set { if let path = Self.path(ofDate: field) { self[keyPath: path] = newValue } }
    }

    /// Nothing to change.
    public var isEmpty: Bool {
        text == nil && due == nil && priority == nil && addTags.isEmpty && removeTags.isEmpty
            && note == nil && recurrence == nil && repeatCount == nil && !countsFromCompletion && project == nil && wait == nil && scheduled == nil && until == nil
            && parent == nil && addBlockers.isEmpty && removeBlockers.isEmpty && start == nil
    }

    /// Whether it sets a parent or adds blockers: links to check for cycles.
    public var addsLinks: Bool {
        (parent.map { $0 != nil } ?? false) || !addBlockers.isEmpty
    }

    /// This edit with every ID it names as `resolve` answers it (a whole ID
    /// for a prefix); a blocker to remove as `removing` answers it.
    public func resolvingIDs(
        _ resolve: (String) async throws -> String, removing: (String) async throws -> String
    ) async rethrows -> TodoEdit {
        var edit = self
        if case let .some(.some(parent)) = parent { edit.parent = .some(try await resolve(parent)) }
        var added: [String] = []
        for id in addBlockers { added.append(try await resolve(id)) }
        var removed: [String] = []
        for id in removeBlockers { removed.append(try await removing(id)) }
        (edit.addBlockers, edit.removeBlockers) = (added, removed)
        return edit
    }
}

extension TodoItem {
    /// This todo with `edit` applied at `date`, checked: text, tags and note
    /// by their rules, and a repeat only with a due date (a repeat's count,
    /// or its counting from completion, only with a repeat).
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
            if edit.repeatCount != nil || edit.countsFromCompletion {
                guard let repeating = item.recurrence else {
                    throw TodoFieldError.repeatDetailWithoutRepeat(edit.repeatCount != nil ? "a count" : "counting from completion")
                }
                item.recurrence = try repeating.with(count: edit.repeatCount, anchor: edit.countsFromCompletion ? .completion : nil)
            }
            if let project = edit.project { item.project = try project.map { raw throws(TodoFieldError) in try TodoProject.validated(raw) } }
            if let wait = edit.wait { item.wait = wait?.roundedToMilliseconds }
            if let scheduled = edit.scheduled { item.scheduled = scheduled?.roundedToMilliseconds }
            if let until = edit.until { item.until = until?.roundedToMilliseconds }
            if let start = edit.start { item.start = start?.roundedToMilliseconds }
            if let parent = edit.parent { item.parent = try parent.map { raw throws(TodoError) in try Self.wholeID(raw) } }
            if !edit.addBlockers.isEmpty || !edit.removeBlockers.isEmpty {
                var blockers = Set(item.blockedBy)
                for raw in edit.removeBlockers { blockers.remove(try Self.wholeID(raw)) }
                for raw in edit.addBlockers { blockers.insert(try Self.wholeID(raw)) }
                item.blockedBy = Array(blockers)
            }
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

extension TodoItem {
    /// A whole ID, as a resolved edit holds it.
    fileprivate static func wholeID(_ text: String) throws(TodoError) -> UUID {
        guard let id = UUID(parsing: text) else { throw .invalidID(text) }
        return id
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
    /// repeats: the same text, tags, priority, note, project, repeat, until,
    /// parent and blockers, due at the next occurrence (`TodoRepeat.next(after:completedOn:in:)`,
    /// which also counts down a COUNT), its wait and scheduled dates moved
    /// as many days as its due date, created at `date`. None once the
    /// series has ended, or the next due date is past `until`.
    ///
    /// Its id is derived from this todo's id, so two machines that complete
    /// the same occurrence (on any day) create the same next todo, and a sync
    /// finds one todo where a random id would have made two.
    public func nextOccurrence(at date: Date, in timeZone: TimeZone) -> TodoItem? {
        guard let recurrence, let due else { return nil }
        guard let (nextDue, nextRepeat) = recurrence.next(after: due, completedOn: CalendarDay(date, in: timeZone), in: timeZone) else {
            return nil
        }
        if let until, Self.isPast(until, nextDue, in: timeZone) { return nil }
        var next = TodoItem(
            // Not the due date: machines completing it on different days make one todo.
            id: nextOccurrenceID,
            text: text, createdAt: date, due: due, priority: priority, tags: tags, note: note,
            recurrence: nextRepeat, project: project, wait: wait, scheduled: scheduled, until: until,
            parent: parent, blockedBy: blockedBy
        )
        next.moveDates(byDays: nextDue.day(in: timeZone).daysSince1970 - due.day(in: timeZone).daysSince1970, in: timeZone)
        return next
    }

    /// The id of the todo that follows this one in its repeat: derived, as
    /// `nextOccurrence` derives it.
    public var nextOccurrenceID: UUID { UUID(derivedFrom: "repeat|" + idString) }
}

extension TodoItem {
    /// Fresh copies of this repeating todo's subtasks (`subtasks`: all of
    /// them, down every level, parents first) under its next occurrence
    /// `next`: not done, created at `date`, their dates moved as the
    /// parent's due date moved, blockers among them pointing at the copies.
    ///
    /// Each copy's id is derived from `next`'s and the subtask's, so however
    /// many machines complete the parent, a sync finds each copy once.
    public func subtaskCopies(_ subtasks: [TodoItem], under next: TodoItem, at date: Date, in timeZone: TimeZone) -> [TodoItem] {
        guard let due, let nextDue = next.due else { return [] }
        let shift = nextDue.day(in: timeZone).daysSince1970 - due.day(in: timeZone).daysSince1970
        // A repeating subtask completed on its own made its next occurrence
        // beside it: only the latest of such a chain is copied.
        let present = Set(subtasks.map(\.id))
        let subtasks = subtasks.filter { !($0.recurrence != nil && present.contains($0.nextOccurrenceID)) }
        var copied: [UUID: UUID] = [id: next.id]
        for subtask in subtasks {
            copied[subtask.id] = UUID(derivedFrom: "subtask|" + next.idString + "|" + subtask.idString)
        }
        return subtasks.compactMap { subtask -> TodoItem? in
            guard let copyID = copied[subtask.id], let parent = subtask.parent.flatMap({ copied[$0] }) else { return nil }
            var copy = TodoItem(
                id: copyID, text: subtask.text, createdAt: date, due: subtask.due, priority: subtask.priority,
                tags: subtask.tags, note: subtask.note, recurrence: subtask.due == nil ? nil : subtask.recurrence,
                project: subtask.project, wait: subtask.wait, scheduled: subtask.scheduled,
                until: subtask.until, parent: parent, blockedBy: subtask.blockedBy.map { copied[$0] ?? $0 }
            )
            copy.moveDates(byDays: shift, in: timeZone)
            return copy
        }
    }
}
