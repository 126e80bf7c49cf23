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
    /// The todo's JSON object at `icsVersion`: what the mapped lines of
    /// `ics` said, in the todo's terms; nil for text stored before the
    /// server kept it (server_0005).
    public let icsBody: String?
    public let deleted: Bool

    /// The bytes it holds in memory, roughly: its JSON and its texts.
    public var byteCount: Int { todo.json.utf8.count + (ics?.utf8.count ?? 0) + (icsBody?.utf8.count ?? 0) }

    /// Whether the todo is still at the version its stored text was served at.
    public var servesStoredText: Bool { ics != nil && icsVersion == todo.version }

    public init(todo: StoredTodo, name: String?, ics: String?, icsVersion: Int?, icsBody: String? = nil, deleted: Bool = false) {
        self.todo = todo
        self.name = name
        self.ics = ics
        self.icsVersion = icsVersion
        self.icsBody = icsBody
        self.deleted = deleted
    }
}

/// A page of todos as resources, the account's change counter it was read
/// at (a CalDAV collection's sync token and ctag), and where the next page
/// starts (nil after the last).
public struct CalendarPage: Sendable, Equatable {
    /// The bytes of todos one page holds at most, past its first todo: a
    /// list of large todos is read in more, smaller pages.
    public static let maxBytes = 4 * 1024 * 1024

    public let objects: [CalendarObject]
    public let counter: Int
    public let next: Int64?
}
