import Foundation
import TodoCore
import TodoICalendar

/// A todo's JSON object, as `todo sync` and json-server clients write it,
/// said as a VTODO and back (the table in Docs/caldav.md); the VTODO
/// side is the shared codec's (`VTodo`).
enum CalDAVMapping {
    /// Where each mapped field lives in a todo's JSON object.
    enum Key {
        static let title = "title", completed = "completed", completedAt = "completedAt", due = "dueDate"
        static let priority = "priority", tags = "tags", note = "note", recurrence = "repeat"
        /// An RRULE `repeat` cannot say, kept as the client wrote it.
        static let otherRule = "repeatRule"
        static let project = "project", wait = "wait", scheduled = "scheduled", until = "until"
        static let parent = "parent", blockedBy = "blockedBy"
        static let createdAt = "createdAt", updatedAt = "updatedAt"

        /// Where `todo sync` reads when a field was last edited.
        static func editedAt(_ key: String) -> String {
            switch key {
            case title: "textEditedAt"
            case completed: "doneEditedAt"
            default: key + "EditedAt"
            }
        }
    }

    /// Every member the mapping reads.
    static let mappedKeys: Set<String> = [
        Key.title, Key.completed, Key.completedAt, Key.due, Key.priority, Key.tags, Key.note, Key.recurrence, Key.otherRule,
        Key.project, Key.wait, Key.scheduled, Key.until, Key.parent, Key.blockedBy, Key.createdAt, Key.updatedAt,
    ]

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
        fields.text = object[Key.title] as? String ?? ""
        fields.isDone = object[Key.completed] as? Bool ?? false
        fields.updatedAt = (object[Key.updatedAt] as? String).flatMap(ISO8601.date(from:))
        // Done with no completion time (a JSON client set only `completed`): done when last changed.
        fields.completedAt = fields.isDone ? (object[Key.completedAt] as? String).flatMap(ISO8601.date(from:)) ?? fields.updatedAt : nil
        fields.due = (object[Key.due] as? String).flatMap(TodoDue.init(text:))
        fields.priority = (object[Key.priority] as? String).flatMap(TodoPriority.init(parsing:))
        fields.tags = (object[Key.tags] as? [Any])?.compactMap { $0 as? String } ?? []
        fields.note = (object[Key.note] as? String).flatMap { $0.isEmpty ? nil : $0 }
        fields.recurrence = (object[Key.recurrence] as? String).flatMap(TodoRepeat.init(parsing:))
        if fields.recurrence == nil { fields.otherRule = object[Key.otherRule] as? String }
        fields.project = (object[Key.project] as? String).flatMap { try? TodoProject.validated($0) }
        fields.wait = (object[Key.wait] as? String).flatMap(TodoDue.init(text:))
        fields.scheduled = (object[Key.scheduled] as? String).flatMap(TodoDue.init(text:))
        fields.until = (object[Key.until] as? String).flatMap(TodoDue.init(text:))
        // A todo's id: its UUID, or the UID a CalDAV app gave it (`1001`).
        fields.parent = (object[Key.parent] as? String).flatMap { $0.isEmpty ? nil : $0 }
        var seen = Set<String>()
        fields.blockedBy = ((object[Key.blockedBy] as? [Any]) ?? []).compactMap { $0 as? String }
            .filter { !$0.isEmpty && seen.insert(VTodo.linkKey($0)).inserted }
        fields.createdAt = (object[Key.createdAt] as? String).flatMap(ISO8601.date(from:))
        return fields
    }

    /// The JSON members that make a todo say `fields`: every field for a new
    /// todo (`current` nil), else only those that differ from `current`, each
    /// with its edit time `now`, as `todo sync` merges field by field.
    static func members(for fields: VTodoFields, over current: VTodoFields?, now: Date) -> [String: Any] {
        var members: [String: Any] = [:]
        let stamp = ISO8601.string(from: now)
        // A new todo gets the fields it has; a changed one, each changed field with its edit time.
        func put(_ key: String, _ value: Any?, changed: Bool) {
            if current == nil {
                if let value { members[key] = value }
            } else if changed {
                members[key] = value ?? NSNull()
                members[Key.editedAt(key)] = stamp
            }
        }
        put(Key.title, fields.text, changed: fields.text != current?.text)
        let doneChanged = fields.isDone != current?.isDone
        put(Key.completed, fields.isDone, changed: doneChanged)
        // Compared to the second: what iCalendar keeps of a time.
        let completedChanged = fields.completedAt.map { Int($0.timeIntervalSince1970) } != current?.completedAt.map { Int($0.timeIntervalSince1970) }
        if fields.isDone, current == nil || doneChanged || completedChanged {
            members[Key.completedAt] = ISO8601.string(from: fields.completedAt ?? now)
        } else if !fields.isDone, current?.isDone == true {
            members[Key.completedAt] = NSNull()
        }
        put(Key.due, fields.due?.text, changed: fields.due.map(wholeSeconds) != current?.due.map(wholeSeconds))
        put(Key.priority, fields.priority?.rawValue, changed: fields.priority != current?.priority)
        // Compared as a VTODO's CATEGORIES are read: trimmed, each once.
        let currentTags = Set((current?.tags ?? []).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        put(Key.tags, fields.tags, changed: Set(fields.tags) != currentTags)
        put(Key.note, fields.note, changed: fields.note != current?.note)
        put(Key.recurrence, fields.recurrence?.description, changed: fields.recurrence != current?.recurrence)
        put(Key.project, fields.project, changed: fields.project != current?.project)
        put(Key.wait, fields.wait?.text, changed: fields.wait.map(wholeSeconds) != current?.wait.map(wholeSeconds))
        put(Key.scheduled, fields.scheduled?.text, changed: fields.scheduled.map(wholeSeconds) != current?.scheduled.map(wholeSeconds))
        put(Key.until, fields.until?.text, changed: fields.until.map(wholeSeconds) != current?.until.map(wholeSeconds))
        // The UIDs as the VTODO names them: the ids of those todos here.
        put(Key.parent, fields.parent, changed: fields.parent.map(VTodo.linkKey) != current?.parent.map(VTodo.linkKey))
        put(Key.blockedBy, fields.blockedBy.isEmpty && current == nil ? nil : fields.blockedBy,
            changed: Set(fields.blockedBy.map(VTodo.linkKey)) != Set((current?.blockedBy ?? []).map(VTodo.linkKey)))
        if let rule = fields.otherRule, current?.otherRule != rule {
            members[Key.otherRule] = rule
        } else if fields.otherRule == nil, current?.otherRule != nil {
            members[Key.otherRule] = NSNull()
        }
        if current == nil { members[Key.createdAt] = ISO8601.string(from: fields.createdAt ?? now) }
        return members
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
