import Foundation
import TodoCore

/// The names a server uses for the fields sync reads and writes.
public struct FieldNames: Sendable, Hashable {
    public var title: String
    public var completed: String
    /// Where sync writes the todo's own UUID, so a create retried after a
    /// timeout or a crash finds its first copy instead of making a second.
    public var marker: String

    public init(title: String = "title", completed: String = "completed", marker: String = "clientId") {
        self.title = title
        self.completed = completed
        self.marker = marker
    }
}

/// A todo as a server holds it, read tolerantly.
public struct RemoteTodo: Sendable, Hashable {
    /// The server's id, as text (`7` and `"7"` alike).
    public var id: String
    public var fields: SyncFields
    /// The local UUID this item was created from, if it carries one.
    public var clientId: UUID?
    public var updatedAt: Date?
    public var version: Int?

    public init(id: String, fields: SyncFields, clientId: UUID? = nil, updatedAt: Date? = nil, version: Int? = nil) {
        self.id = id
        self.fields = fields
        self.clientId = clientId
        self.updatedAt = updatedAt
        self.version = version
    }

    /// The local todo this item belongs to: its marker, else its id if that is a UUID.
    public var todoId: UUID? { clientId ?? UUID(parsing: id) }
}

// MARK: - Reading JSON

extension RemoteTodo {
    /// The text used for an item whose title is missing, empty or unusable.
    public static let untitled = "(untitled)"

    /// Reads one item; nil if it is not an object with a usable id. A missing
    /// field takes its default; `completed` may be `true`, `"true"` or `1`.
    public init?(json: JSONValue, names: FieldNames) {
        guard case let .object(object) = json else { return nil }
        self.init(
            id: object["id"], title: object[names.title], completed: object[names.completed],
            marker: object[names.marker], updatedAt: object["updatedAt"], version: object["version"]
        )
    }

    /// Reads an item from the values of its fields (nil: missing or null);
    /// nil if it has no usable id. Every reader of items ends here.
    init?(id: JSONValue?, title: JSONValue?, completed: JSONValue?, marker: JSONValue?, updatedAt: JSONValue?, version: JSONValue?) {
        guard let id = id.flatMap(Self.idText) else { return nil }
        var clientId: UUID?
        if case let .string(text) = marker { clientId = UUID(parsing: text) }
        var date: Date?
        if case let .string(text) = updatedAt { date = ISO8601.date(from: text) }
        var number: Int?
        if case let .integer(value) = version { number = Int(value) }
        self.init(
            id: id,
            fields: SyncFields(text: Self.text(title), isDone: Self.flag(completed)),
            clientId: clientId,
            updatedAt: date,
            version: number
        )
    }

    static func idText(_ value: JSONValue) -> String? {
        switch value {
        case let .string(text) where !text.isEmpty: text
        case let .integer(number): String(number)
        default: nil
        }
    }

    /// A title made fit for a todo: one line, trimmed, within the length limit.
    static func text(_ value: JSONValue?) -> String {
        let raw: String
        switch value {
        case let .string(text): raw = text
        case let .integer(number): raw = String(number)
        case let .number(number): raw = String(number)
        default: raw = ""
        }
        return TodoText.isPlainLine(raw) ? raw : fitted(raw)
    }

    /// Any text made one line, trimmed and cut to the limit; `untitled` if nothing is left.
    static func fitted(_ raw: String) -> String {
        // Unicode properties, not CharacterSet: this runs for every todo pulled.
        let oneLine = String(String.UnicodeScalarView(raw.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: " "
            default: scalar
            }
        }))
        let trimmed = String(oneLine.trimmingCharacters(in: .whitespaces).prefix(TodoText.maximumLength))
        return (try? TodoText.validated(trimmed)) ?? untitled
    }

    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case let .bool(flag): flag
        case let .integer(number): number != 0
        case let .string(text): ["true", "1", "yes"].contains(text.lowercased())
        default: false
        }
    }
}
