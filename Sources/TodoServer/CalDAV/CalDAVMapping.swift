import Foundation
import TodoCore
import TodoICalendar

/// A todo's JSON object, as `todo sync` and json-server clients write it,
/// said as a VTODO and back (the table in Docs/caldav.md); the VTODO
/// side is the shared codec's (`VTodo`).
enum CalDAVMapping {
    /// Where the task's own members live in a todo's JSON object; each
    /// field lives under its API key (`TodoField.apiKey`).
    enum Key {
        static let completedAt = "completedAt", createdAt = "createdAt", updatedAt = "updatedAt"
        /// Where todo-server kept an RRULE the engine does not follow before
        /// `repeat` held it (`TodoRepeat.kept`): read, and cleared once `repeat` is written.
        static let otherRule = "repeatRule"
    }

    /// Every member the mapping reads.
    static let mappedKeys = Set(TodoField.allCases.map(\.apiKey) + [Key.completedAt, Key.createdAt, Key.updatedAt, Key.otherRule])

    /// The members of a todo's JSON object the mapping reads, each read on its
    /// own: the rest (a client's own fields, nested as deep and wide as the
    /// limits allow) are stepped over, never built into objects, so a 1 MB
    /// todo costs a report its text, not a hundred MB of Foundation objects.
    static func mappedMembers(of json: String) -> [String: Any] {
        let bytes = Array(json.utf8)
        var object: [String: Any] = [:]
        for member in JSONSlices.members(of: bytes, in: 0..<bytes.count) {
            let name = String(decoding: member.name, as: UTF8.self)
            guard mappedKeys.contains(name),
                  let value = try? JSONSerialization.jsonObject(with: Data(bytes[member.value]), options: [.fragmentsAllowed]) else { continue }
            object[name] = value
        }
        return object
    }

    /// What the todo's JSON object says, in VTODO terms.
    static func fields(of todo: StoredTodo) -> VTodoFields {
        let object = mappedMembers(of: todo.json)
        var fields = VTodoFields(uid: todo.id)
        for field in TodoField.allCases { fields[field] = value(of: field, object[field.apiKey]) }
        fields.updatedAt = (object[Key.updatedAt] as? String).flatMap(ISO8601.date(from:))
        // Done with no completion time (a JSON client set only `completed`): done when last changed.
        fields.completedAt = fields.isDone ? (object[Key.completedAt] as? String).flatMap(ISO8601.date(from:)) ?? fields.updatedAt : nil
        if fields.recurrence == nil { fields.recurrence = (object[Key.otherRule] as? String).flatMap(TodoRepeat.init(kept:)) }
        fields.createdAt = (object[Key.createdAt] as? String).flatMap(ISO8601.date(from:))
        return fields
    }

    /// A member's value (as `JSONSerialization` reads it) as a field holds
    /// it; what the field cannot hold is none. A link names a todo's id: its
    /// UUID, or the UID a CalDAV app gave it (`1001`).
    static func value(of field: TodoField, _ member: Any?) -> FieldValue {
        let text = (member as? String).map(FieldValue.text) ?? .none
        let texts = ((member as? [Any]) ?? []).compactMap { $0 as? String }
        return switch field.kind {
        case .text: .text(member as? String ?? "")
        case .flag: .flag(member as? Bool ?? false)
        case .tags: .list(texts)
        case .note, .todo: (member as? String).flatMap { $0.isEmpty ? nil : FieldValue.text($0) } ?? .none
        case .project: (member as? String).flatMap { try? TodoProject.validated($0) }.map(FieldValue.text) ?? .none
        case .todos:
            .list({
                var seen = Set<String>()
                return texts.filter { !$0.isEmpty && seen.insert(VTodo.linkKey($0)).inserted }
            }())
        case .date, .priority, .recurrence: text
        }
    }

    /// The JSON members that make a todo say `fields`: every field it has
    /// for a new todo (`current` nil), else only those that differ from
    /// `current`, each with its edit time `now`, as `todo sync` merges field
    /// by field.
    static func members(for fields: VTodoFields, over current: VTodoFields?, now: Date) -> [String: Any] {
        var members: [String: Any] = [:]
        let stamp = ISO8601.string(from: now)
        for field in TodoField.allCases {
            let value = fields[field]
            if current == nil {
                if !value.isEmpty || field.kind == .tags { members[field.apiKey] = json(value) }
            } else if let current, differs(field, fields, current) {
                members[field.apiKey] = json(value)
                members[field.apiEditedAtKey] = stamp
            }
        }
        let doneChanged = fields.isDone != current?.isDone
        // Compared to the second: what iCalendar keeps of a time.
        let completedChanged = fields.completedAt.map { Int($0.timeIntervalSince1970) } != current?.completedAt.map { Int($0.timeIntervalSince1970) }
        if fields.isDone, current == nil || doneChanged || completedChanged {
            members[Key.completedAt] = ISO8601.string(from: fields.completedAt ?? now)
        } else if !fields.isDone, current?.isDone == true {
            members[Key.completedAt] = NSNull()
        }
        if members[TodoField.recurrence.apiKey] != nil, current?.recurrence?.kept != nil { members[Key.otherRule] = NSNull() }
        if current == nil { members[Key.createdAt] = ISO8601.string(from: fields.createdAt ?? now) }
        return members
    }

    /// Whether `field` says something else in `fields` than in `current`,
    /// as a VTODO can say it: dates to the second, tags as CATEGORIES are
    /// read (trimmed, each once), links by the UIDs they name.
    static func differs(_ field: TodoField, _ fields: VTodoFields, _ current: VTodoFields) -> Bool {
        switch field.kind {
        case .date: return fields.date(field).map(wholeSeconds) != current.date(field).map(wholeSeconds)
        case .tags: return Set(fields.tags) != Set(current.tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        case .todo: return fields.parent.map(VTodo.linkKey) != current.parent.map(VTodo.linkKey)
        case .todos: return Set(fields.blockedBy.map(VTodo.linkKey)) != Set(current.blockedBy.map(VTodo.linkKey))
        default: return fields[field] != current[field]
        }
    }

    /// A field's value as a JSON member (for `JSONSerialization`).
    static func json(_ value: FieldValue) -> Any {
        switch value {
        case .none: NSNull()
        case let .flag(flag): flag
        case let .text(text): text
        case let .list(list): list
        }
    }

    /// A due time to the second: what iCalendar keeps of it.
    static func wholeSeconds(_ due: TodoDue) -> TodoDue {
        if case let .moment(date) = due { return .moment(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))) }
        return due
    }

    /// The members as a JSON object's bytes.
    static func json(_ members: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }
}
