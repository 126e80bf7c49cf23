import Foundation
import TodoCore

/// The values of the keys sync reads from one item (nil: missing), as every
/// reader of items collects them before `RemoteTodo(raw:)` reads them: the
/// item's own keys (`Own`), then each field's (`TodoField`) and its edit time's.
struct RemoteFields {
    /// The keys of the item itself, not of a field.
    enum Own: Int, CaseIterable {
        case id, marker, version, createdAt, updatedAt, completedAt
    }

    /// The keys read, by these names, in the order of `values`.
    static func keys(_ names: FieldNames) -> [String] {
        Own.allCases.map { own in
            switch own {
            case .id: "id"
            case .marker: names.marker
            case .version: "version"
            case .createdAt: names.createdAt
            case .updatedAt: names.updatedAt
            case .completedAt: names.completedAt
            }
        } + TodoField.allCases.flatMap { [names.name(of: $0), names.editedAtName(of: $0)] }
    }

    /// Where `field`'s value is among the keys; its edit time is next.
    static func place(of field: TodoField) -> Int { Own.allCases.count + 2 * field.index }

    var values = [JSONValue?](repeating: nil, count: Own.allCases.count + 2 * TodoField.allCases.count)

    subscript(own: Own) -> JSONValue? { values[own.rawValue] }
    subscript(field: TodoField) -> JSONValue? { values[Self.place(of: field)] }
    subscript(editedAt field: TodoField) -> JSONValue? { values[Self.place(of: field) + 1] }

    /// The fields of an object, by these names.
    init(object: [String: JSONValue], names: FieldNames) {
        for (index, key) in Self.keys(names).enumerated() { values[index] = object[key] }
    }

    init() {}
}

// MARK: - Reading JSON

extension RemoteTodo {
    /// The text used for an item whose title is missing, empty or unusable.
    public static let untitled = "(untitled)"

    /// Reads one item; nil if it is not an object with a usable id. A missing
    /// field takes its default; `completed` may be `true`, `"true"` or `1`.
    public init?(json: JSONValue, names: FieldNames) {
        guard case let .object(object) = json else { return nil }
        self.init(raw: RemoteFields(object: object, names: names))
    }

    /// Reads an item from the values of its fields; nil if it has no usable
    /// id. Every reader of items ends here.
    init?(raw: RemoteFields) {
        guard let id = raw[.id].flatMap(Self.idText) else { return nil }
        var clientId: UUID?
        if case let .string(text) = raw[.marker] { clientId = UUID(parsing: text) }
        var number: Int?
        if case let .integer(value) = raw[.version] { number = Int(value) }
        var fields = SyncFields(text: "", isDone: false)
        var times = FieldTimes()
        for field in TodoField.allCases {
            fields.set(field, to: Self.value(of: field, raw[field]))
            times[field] = Self.date(raw[editedAt: field])
        }
        self.init(
            id: id, fields: fields, clientId: clientId, createdAt: Self.date(raw[.createdAt]),
            updatedAt: Self.date(raw[.updatedAt]), completedAt: Self.date(raw[.completedAt]), editedAt: times, version: number
        )
        foreignTags = Self.foreignTags(raw[.tags])
        // A todo-server task a CalDAV app made has its UID as its id (`1001`,
        // an upper-case UUID): links to it name that id, resolved as a CalDAV list's are.
        if clientId == nil, id != UUID(parsing: id)?.lowercasedString { uid = id }
        relations = Self.namedLinks(parent: raw[.parent], blockedBy: raw[.blockedBy])
    }

    /// A field's value as a server may write it, made what a todo holds:
    /// what cannot be read is none, as a missing value is.
    static func value(of field: TodoField, _ value: JSONValue?) -> FieldValue {
        func text(_ text: String?) -> FieldValue { text.map(FieldValue.text) ?? .none }
        return switch field.kind {
        case .text: .text(Self.text(value))
        case .flag: .flag(flag(value))
        case .date: text(due(value)?.text)
        case .priority: text(priority(value)?.rawValue)
        case .tags: .list(tags(value))
        case .note: text(note(value))
        case .recurrence: text(recurrence(value)?.description)
        case .project: text(project(value))
        case .todo: text(todoID(value)?.lowercasedString)
        case .todos: .list(todoIDs(value).map(\.lowercasedString))
        }
    }

    /// The links that name a todo by an id no UUID is, to be resolved.
    static func namedLinks(parent: JSONValue?, blockedBy: JSONValue?) -> [RemoteRelation] {
        var relations: [RemoteRelation] = []
        if case let .string(text) = parent, !text.isEmpty, UUID(parsing: text) == nil { relations.append(RemoteRelation(.parent, text)) }
        if case let .array(elements) = blockedBy {
            for case let .string(text) in elements where !text.isEmpty && UUID(parsing: text) == nil {
                relations.append(RemoteRelation(.dependsOn, text))
            }
        }
        return relations
    }

    /// An ISO 8601 date, else nil: a server's own date format is not ours to guess.
    static func date(_ value: JSONValue?) -> Date? {
        if case let .string(text) = value { ISO8601.date(from: text) } else { nil }
    }

    /// A due date: `2026-12-01`, or an ISO 8601 date and time; else none.
    static func due(_ value: JSONValue?) -> TodoDue? {
        if case let .string(text) = value { TodoDue(text: text) } else { nil }
    }

    /// `high`, `medium`, `low` (or their initials, any case), or 1 to 3; else none.
    static func priority(_ value: JSONValue?) -> TodoPriority? {
        switch value {
        case let .string(text): TodoPriority(parsing: text)
        case let .integer(rank): TodoPriority(rank: Int(clamping: rank))
        default: nil
        }
    }

    /// An array of words, or one text of words separated by commas or
    /// spaces; what is not a usable tag is left out.
    static func tags(_ value: JSONValue?) -> [String] {
        let words: [String]
        switch value {
        case let .array(elements):
            words = elements.compactMap { if case let .string(text) = $0 { text } else { nil } }
        case let .string(text):
            words = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        default:
            return []
        }
        guard !words.isEmpty else { return [] }
        return TodoTags.normalized(words.compactMap { try? TodoTags.validated($0) })
    }

    /// The strings of an array of tags that are not usable tags, each once, in order.
    static func foreignTags(_ value: JSONValue?) -> [String] {
        guard case let .array(elements) = value else { return [] }
        var seen = Set<String>()
        return elements.compactMap { element in
            guard case let .string(text) = element, (try? TodoTags.validated(text)) == nil, seen.insert(text).inserted else { return nil }
            return text
        }
    }

    /// Free text; its control characters (but line breaks and tabs) become spaces.
    static func note(_ value: JSONValue?) -> String? {
        guard case let .string(text) = value else { return nil }
        if let note = try? TodoNote.validated(text) { return note }
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar == "\n" || scalar == "\t" || scalar.properties.generalCategory != .control ? scalar : " "
        }))
        return (try? TodoNote.validated(String(cleaned.prefix(TodoNote.maximumLength)))) ?? nil
    }

    /// A project (`home.garden`); what is not one is none.
    static func project(_ value: JSONValue?) -> String? {
        if case let .string(text) = value { try? TodoProject.validated(text) } else { nil }
    }

    /// A todo's id (a UUID); what is not one is none.
    static func todoID(_ value: JSONValue?) -> UUID? {
        if case let .string(text) = value { UUID(parsing: text) } else { nil }
    }

    /// An array of todos' ids; what is not one is left out.
    static func todoIDs(_ value: JSONValue?) -> [UUID] {
        guard case let .array(elements) = value else { return [] }
        return elements.compactMap { todoID($0) }
    }

    static func recurrence(_ value: JSONValue?) -> TodoRepeat? {
        if case let .string(text) = value { TodoRepeat(parsing: text) } else { nil }
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
