import TodoCore

/// The names a server uses for the fields sync reads and writes.
public struct FieldNames: Sendable, Hashable {
    public var title: String
    public var completed: String
    /// Where sync writes the todo's own UUID, so a create retried after a
    /// timeout or a crash finds its first copy instead of making a second.
    public var marker: String
    public var createdAt: String
    public var updatedAt: String
    public var completedAt: String
    /// Where sync writes when the text and the done mark were last edited,
    /// on the machine that edited them.
    public var textEditedAt: String
    public var doneEditedAt: String
    public var due: String
    public var priority: String
    public var tags: String
    public var note: String
    public var recurrence: String
    public init(
        title: String = TodoField.text.apiKey, completed: String = TodoField.done.apiKey, marker: String = "clientId",
        createdAt: String = "createdAt", updatedAt: String = "updatedAt", completedAt: String = "completedAt",
        textEditedAt: String = TodoField.text.apiEditedAtKey, doneEditedAt: String = TodoField.done.apiEditedAtKey,
        due: String = TodoField.due.apiKey, priority: String = TodoField.priority.apiKey, tags: String = TodoField.tags.apiKey,
        note: String = TodoField.note.apiKey, recurrence: String = TodoField.recurrence.apiKey
    ) {
        self.title = title
        self.completed = completed
        self.marker = marker
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
        self.textEditedAt = textEditedAt
        self.doneEditedAt = doneEditedAt
        self.due = due
        self.priority = priority
        self.tags = tags
        self.note = note
        self.recurrence = recurrence
    }

    /// The name of the field that holds `field`.
    public func name(of field: TodoField) -> String {
        switch field {
        case .text: title
        case .done: completed
        case .due: due
        case .priority: priority
        case .tags: tags
        case .note: note
        case .recurrence: recurrence
        // The fields since (the plan's, `TodoField.planned`): under their
        // API keys on every server (no option renames them).
        default: field.apiKey
        }
    }

    /// The name of the field that holds when `field` was last edited: the
    /// field's own name with `EditedAt` (`dueDate` → `dueDateEditedAt`), but
    /// `textEditedAt` and `doneEditedAt` for the text and the done mark.
    public func editedAtName(of field: TodoField) -> String {
        switch field {
        case .text: textEditedAt
        case .done: doneEditedAt
        default: name(of: field) + "EditedAt"
        }
    }
}
