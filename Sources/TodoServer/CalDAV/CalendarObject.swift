/// A todo as a CalDAV resource: the todo, and, when a CalDAV client wrote it,
/// the name it gave the resource and the iCalendar text it sent last.
public struct CalendarObject: Sendable, Equatable {
    /// The todo; for a deleted one, its tombstone (`deleted`).
    public let todo: StoredTodo
    /// The resource's name when a client chose it; nil: `<id>.ics`.
    public let name: String?
    /// The iCalendar text served when a client last PUT it; nil for a todo
    /// never written through CalDAV.
    public let ics: String?
    /// The todo's version `ics` was served at: while the todo is still
    /// there, `ics` is what it serves.
    public let icsVersion: Int?
    public let deleted: Bool

    public init(todo: StoredTodo, name: String?, ics: String?, icsVersion: Int?, deleted: Bool = false) {
        self.todo = todo
        self.name = name
        self.ics = ics
        self.icsVersion = icsVersion
        self.deleted = deleted
    }
}

/// Todos as resources, and the account's change counter they were read at
/// (a CalDAV collection's sync token and ctag).
public struct CalendarChanges: Sendable, Equatable {
    public let objects: [CalendarObject]
    public let counter: Int
}
