import Foundation

/// One todo: a plain value, identified by a UUID the client generates.
///
/// Times are kept to the millisecond, the precision of the database and of
/// the JSON output, so a todo survives any round trip unchanged.
public struct TodoItem: Sendable, Codable, Identifiable, Hashable {
    public var id: UUID
    public var text: String
    public var isDone: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var completedAt: Date?
    public var due: TodoDue?
    public var priority: TodoPriority?
    /// Distinct and sorted (`TodoTags.normalized`).
    public var tags: [String]
    /// Free text, several lines.
    public var note: String?
    /// Set only with a due date: completing the todo creates the next one.
    public var recurrence: TodoRepeat?
    /// Its project (dot-separated, the widest first: `home.garden`, as
    /// Taskwarrior writes projects; `TodoProject.validated`), the date until
    /// which it is hidden (`--wait`), when to start on it (`--scheduled`) and
    /// the last date it applies (`--until`: a repeat makes no occurrence
    /// after it, and unfinished past it, it leaves the lists), the todo it
    /// is a subtask of and the todos that block it (`TodoLinks`). Read and
    /// set as `project`, `wait`, `scheduled`, `until`, `parent`, `blockedBy`
    /// (`PlanHolding`).
    public var planBox: PlanBox?
    /// When each field was last edited here or on the machine a sync brought
    /// the edit from; a field never edited since the todo was created has none.
    public var editedAt: FieldTimes

    public init(
        id: UUID,
        text: String,
        isDone: Bool = false,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil,
        due: TodoDue? = nil,
        priority: TodoPriority? = nil,
        tags: [String] = [],
        note: String? = nil,
        recurrence: TodoRepeat? = nil,
        project: String? = nil,
        wait: TodoDue? = nil,
        scheduled: TodoDue? = nil,
        until: TodoDue? = nil,
        parent: UUID? = nil,
        blockedBy: [UUID] = [],
        editedAt: FieldTimes = FieldTimes()
    ) {
        self.id = id
        self.text = text
        self.isDone = isDone
        self.createdAt = createdAt.roundedToMilliseconds
        self.updatedAt = (updatedAt ?? createdAt).roundedToMilliseconds
        self.completedAt = completedAt?.roundedToMilliseconds
        self.due = due?.roundedToMilliseconds
        self.priority = priority
        self.tags = TodoTags.normalized(tags)
        self.note = note
        self.recurrence = recurrence
        self.planBox = PlanBox.holding(
            project: project, wait: wait?.roundedToMilliseconds, scheduled: scheduled?.roundedToMilliseconds,
            until: until?.roundedToMilliseconds, parent: parent, blockedBy: blockedBy
        )
        self.editedAt = editedAt
    }
}

extension TodoItem: PlanHolding {
    /// Whether one of the plan's fields (`TodoPlan`) is set or has an edit
    /// time: most todos have none, and their plan's columns stay NULL.
    public var hasPlan: Bool { planBox != nil || editedAt.hasPlanTimes }
}

// MARK: - Changes

extension TodoItem {
    /// This todo marked done (or not done) at `date`.
    public func marking(done: Bool, at date: Date) -> TodoItem {
        guard done != isDone else { return self }
        var item = self
        item.isDone = done
        item.editedAt.stamp(.done, at: date)
        item.completedAt = done ? item.editedAt[.done] : nil
        item.updatedAt = max(date.roundedToMilliseconds, item.editedAt[.done] ?? date)
        return item
    }

    /// This todo with new text, edited at `date`.
    public func editing(text newText: String, at date: Date) -> TodoItem {
        guard newText != text else { return self }
        var item = self
        item.text = newText
        item.editedAt.stamp(.text, at: date)
        item.updatedAt = max(date.roundedToMilliseconds, item.editedAt[.text] ?? date)
        return item
    }

    /// This todo's fields as `edited` holds them, each one that changed
    /// stamped as edited at `date`; itself if none changed.
    public func stamping(_ edited: TodoItem, at date: Date) -> TodoItem {
        var item = edited
        item.editedAt = editedAt
        item.editedAt.stamp(changesFrom: self, to: edited, at: date)
        guard item.editedAt != editedAt else { return self }
        item.updatedAt = max(date.roundedToMilliseconds, item.editedAt.latest ?? date)
        return item
    }

    /// When this todo last changed, as every replica reckons it alike: its
    /// latest edit, its completion or its creation, whichever came last.
    public var lastChanged: Date {
        max(createdAt, completedAt ?? createdAt, editedAt.latest ?? createdAt)
    }
}

// MARK: - Rules

extension TodoItem {
    /// The rule this todo breaks that ties several fields together, if any.
    /// Each field's own rules (text, tags, note) hold by construction; these
    /// are the ones a merge of two valid todos, field by field, can break.
    public var ruleViolation: TodoFieldError? {
        if recurrence?.rule != nil, due == nil { return .repeatNeedsDue }
        if parent == id { return .ownParent }
        if blockedBy.contains(id) { return .blocksItself }
        return nil
    }
}

// MARK: - Identifiers

extension TodoItem {
    /// The identifier as stored and shown: lowercase, with dashes.
    public var idString: String { id.lowercasedString }
}

extension Date {
    /// Milliseconds since 1970, the unit todos are stored in.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The date at `milliseconds` since 1970.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date rounded to the millisecond.
    public var roundedToMilliseconds: Date {
        Date(millisecondsSince1970: millisecondsSince1970)
    }

    /// This date's second, what Taskwarrior and iCalendar keep of a time.
    public var wholeSecond: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
