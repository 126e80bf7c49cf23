import Foundation
import TodoCore
import TodoICalendar

/// A VTODO on a CalDAV server as sync reads and writes it: the shared
/// codec (`VTodo`, the table in Docs/caldav.md) for the fields, and one
/// property of our own for what iCalendar cannot say.
///
/// iCalendar keeps one LAST-MODIFIED for a whole task, to the second; sync
/// settles two edits of one field by when each field was edited, to the
/// millisecond. So `todo` writes `X-TODO-EDITED`: for each field, when it
/// was edited and a digest of the value it then held (`text=TIME/DIGEST`),
/// and the exact creation and completion times. A field whose value still
/// has its digest keeps its time; one another app changed since counts as
/// edited at the task's LAST-MODIFIED, and so does every field of a task
/// `todo` never wrote.
enum CalDAVItem {
    static let editedProperty = "X-TODO-EDITED"

    /// The task in `calendar` as a sync item named `name`; throws for an
    /// object that is not one task (an event in a list that holds both: not ours to read).
    static func remote(
        name: String, etag: String?, calendar: ICalendarComponent, timeZone: TimeZone
    ) throws(VTodoError) -> RemoteTodo {
        let vtodo = try VTodo.fields(of: calendar, timeZone: timeZone)
        let fields = syncFields(vtodo)
        let record = VTodo.masterIndex(in: calendar).flatMap { index -> Record? in
            if case let .component(todo) = calendar.entries[index] { Record(todo) } else { nil }
        }
        let changedAt = vtodo.updatedAt
        var editedAt = FieldTimes()
        for field in TodoField.allCases {
            editedAt[field] = record?.time(of: field, holding: fields) ?? changedAt
        }
        let doneKept = record?.time(of: .done, holding: fields) != nil
        // The UID as links name it: unescaped and trimmed, as RELATED-TO values are read.
        let uid = ICalendarText.unescape(vtodo.uid[...]).trimmingCharacters(in: .whitespaces)
        let clientId = UUID(parsing: vtodo.uid)
        var item = RemoteTodo(
            id: name, fields: fields, clientId: clientId,
            createdAt: exact(vtodo.createdAt, record?.created), updatedAt: changedAt,
            completedAt: vtodo.isDone ? exact(vtodo.completedAt, doneKept ? record?.completed : nil) : nil,
            editedAt: editedAt, version: etag.map(version(ofETag:)),
            uid: uid == clientId?.lowercasedString ? nil : uid
        )
        if let index = VTodo.masterIndex(in: calendar), case let .component(todo) = calendar.entries[index] {
            item.relations = relations(of: todo)
        }
        return item
    }

    /// The RELATED-TO lines sync resolves itself (it reads those naming
    /// UUIDs from the codec): those naming a task by a UID of its own, every
    /// CHILD, which names a subtask, and, where the first PARENT names no
    /// UUID, every PARENT in order: the first that names a todo here is the
    /// parent (another app's line to a task not in the list may come first).
    static func relations(of todo: ICalendarComponent) -> [RemoteRelation] {
        let parents = todo.properties("RELATED-TO").filter { ["PARENT", nil].contains($0.parameter("RELTYPE")?.uppercased()) }
        let firstParentIsUUID = parents.first.map { UUID(parsing: ICalendarText.unescape($0.value[...]).trimmingCharacters(in: .whitespaces)) != nil } ?? true
        return todo.properties("RELATED-TO").compactMap { line in
            let uid = ICalendarText.unescape(line.value[...]).trimmingCharacters(in: .whitespaces)
            guard !uid.isEmpty else { return nil }
            let kind: RemoteRelation.Kind
            switch line.parameter("RELTYPE")?.uppercased() {
            case nil, "PARENT": kind = .parent
            case "DEPENDS-ON": kind = .dependsOn
            case "CHILD": kind = .child
            default: return nil
            }
            if kind == .dependsOn || (kind == .parent && firstParentIsUUID), UUID(parsing: uid) != nil { return nil }
            return RemoteRelation(kind, uid)
        }
    }

    /// The time a standard property holds, to the second, as `todo` wrote it
    /// beside it to the millisecond (`X-TODO-EDITED`) where that agrees with
    /// it: another app that moved the property wins; one that kept it, or
    /// rewrote it in whole seconds, keeps the exact time every replica holds.
    static func exact(_ property: Date?, _ recorded: Date?) -> Date? {
        guard let property else { return recorded }
        guard let recorded, recorded.timeIntervalSince1970.rounded(.down) == property.timeIntervalSince1970.rounded(.down) else {
            return property
        }
        return recorded
    }

    /// A VTODO's fields as sync holds them: a title fit for a todo, the
    /// categories that are tags, a note without control characters.
    static func syncFields(_ vtodo: VTodoFields) -> SyncFields {
        var fields = SyncFields(text: "", isDone: false)
        for field in TodoField.allCases {
            fields.set(field, to: RemoteTodo.value(of: field, JSONValue(vtodo[field])))
        }
        return fields
    }

    /// A new task's calendar object: the todo's fields, its UUID as UID.
    static func new(
        _ todo: TodoItem, fields: SyncFields, editedAt: FieldTimes, timeZone: TimeZone, now: Date, linkNames: LinkNames = LinkNames()
    ) -> ICalendarComponent {
        var vtodo = VTodoFields(uid: todo.idString)
        vtodo.apply(fields, changed: Set(TodoField.allCases), linkNames: linkNames)
        vtodo.createdAt = todo.createdAt
        vtodo.completedAt = fields.isDone ? todo.completedAt ?? editedAt[.done] ?? now : nil
        let calendar = VTodo.write(vtodo, over: nil, timeZone: timeZone, now: now, isForeignLink: linkNames.isForeign)
        return stamped(calendar, editedAt: editedAt, created: todo.createdAt, completed: vtodo.completedAt, timeZone: timeZone)
    }

    /// The server's own object with only the `changed` fields rewritten:
    /// every other line, another app's included, stays byte for byte.
    static func rewritten(
        _ calendar: ICalendarComponent, fields: SyncFields, changed: Set<TodoField>, editedAt: FieldTimes,
        local: TodoItem?, dates: Bool, timeZone: TimeZone, now: Date, linkNames: LinkNames = LinkNames()
    ) throws(VTodoError) -> ICalendarComponent {
        var vtodo = try VTodo.fields(of: calendar, timeZone: timeZone)
        // The exact times written before, where the server's whole seconds still agree.
        let record = VTodo.masterIndex(in: calendar).flatMap { index -> Record? in
            if case let .component(todo) = calendar.entries[index] { Record(todo) } else { nil }
        }
        vtodo.createdAt = exact(vtodo.createdAt, record?.created)
        vtodo.completedAt = exact(vtodo.completedAt, record?.completed)
        // Categories a tag cannot be (with spaces, say) are another app's: kept.
        let foreign = vtodo.tags.filter { (try? TodoTags.validated($0)) == nil }
        vtodo.apply(fields, changed: changed, linkNames: linkNames)
        if changed.contains(.tags) { vtodo.tags += foreign }
        if changed.contains(.done) || dates {
            vtodo.completedAt = fields.isDone ? local?.completedAt ?? vtodo.completedAt ?? editedAt[.done] ?? now : nil
        }
        if dates, let local { vtodo.createdAt = local.createdAt }
        vtodo.updatedAt = nil
        let written = VTodo.write(vtodo, over: calendar, timeZone: timeZone, now: now, isForeignLink: linkNames.isForeign)
        return stamped(
            written, editedAt: editedAt, created: local?.createdAt ?? vtodo.createdAt, completed: vtodo.completedAt, timeZone: timeZone
        )
    }

    /// `calendar` with `X-TODO-EDITED`: each field's edit time and the
    /// digest of the value it holds as written.
    static func stamped(
        _ calendar: ICalendarComponent, editedAt: FieldTimes, created: Date?, completed: Date?, timeZone: TimeZone
    ) -> ICalendarComponent {
        var calendar = calendar
        guard let index = VTodo.masterIndex(in: calendar), case var .component(todo) = calendar.entries[index],
              let held = try? VTodo.fields(of: calendar, timeZone: timeZone)
        else { return calendar }
        let fields = syncFields(held)
        var words: [String] = []
        for field in TodoField.allCases {
            words.append("\(field.rawValue)=\(editedAt[field].map(ISO8601.string(from:)) ?? "-")/\(digest(fields[field]))")
        }
        if let created { words.append("created=\(ISO8601.string(from: created))") }
        if let completed { words.append("completed=\(ISO8601.string(from: completed))") }
        todo.set(editedProperty, to: ContentLine(name: editedProperty, value: words.joined(separator: " ")))
        calendar.entries[index] = .component(todo)
        return calendar
    }

    /// What `X-TODO-EDITED` says: each field's edit time (nil: never edited)
    /// and the digest of its value then; the creation and completion times.
    struct Record {
        var fields: [TodoField: (time: Date?, digest: String)] = [:]
        var created: Date?
        var completed: Date?

        init?(_ todo: ICalendarComponent) {
            guard let words = todo.property(editedProperty)?.value.split(separator: " ") else { return nil }
            for word in words {
                guard let equals = word.firstIndex(of: "=") else { continue }
                let key = String(word[..<equals])
                let value = word[word.index(after: equals)...]
                if let field = TodoField(rawValue: key), let slash = value.lastIndex(of: "/") {
                    let time = value[..<slash]
                    fields[field] = (time == "-" ? nil : ISO8601.date(from: String(time)), String(value[value.index(after: slash)...]))
                } else if key == "created" {
                    created = ISO8601.date(from: String(value))
                } else if key == "completed" {
                    completed = ISO8601.date(from: String(value))
                }
            }
        }

        /// The field's edit time if it still holds the value written with
        /// it (`.some(nil)`: never edited); nil if another app changed it. A
        /// field the record does not name (written before `todo` had it) that
        /// is empty was never edited: the first sync after an upgrade leaves
        /// every such task as it is.
        func time(of field: TodoField, holding current: SyncFields) -> Date?? {
            guard let entry = fields[field] else { return current[field].isEmpty ? .some(nil) : nil }
            guard entry.digest == digest(current[field]) else { return nil }
            return .some(entry.time)
        }
    }

    /// A short digest of a field's value: 32 bits of FNV-1a, in hex.
    static func digest(_ value: String) -> String {
        String(UInt32(truncatingIfNeeded: UInt(bitPattern: digest64(value))), radix: 16)
    }

    /// An ETag as the version sync records: a 64-bit FNV-1a digest of its
    /// opaque part (without `W/` and quotes, which servers write differently
    /// in a header and in `getetag`). Sync only compares versions for
    /// equality, and every write sends the ETag itself, read from the server.
    static func version(ofETag etag: String) -> Int {
        var tag = Substring(etag.trimmedASCIIWhitespace)
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") { tag = tag.dropFirst().dropLast() }
        return digest64(tag)
    }

    /// 64 bits of FNV-1a over the text's UTF-8.
    static func digest64(_ text: some StringProtocol) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int(bitPattern: UInt(hash))
    }
}

extension VTodoFields {
    /// Takes the `changed` fields' values from `fields`. A linked todo is
    /// named by the UID the server knows it by (`linkNames`), else by its id.
    mutating func apply(_ fields: SyncFields, changed: Set<TodoField>, linkNames: LinkNames = LinkNames()) {
        func named(_ id: String) -> String { UUID(parsing: id).map(linkNames.name) ?? id }
        for field in changed {
            self[field] = switch (field.kind, fields[value: field]) {
            case let (.todo, .text(id)): .text(named(id))
            case let (.todos, .list(ids)): .list(ids.map(named))
            case let (_, value): value
            }
        }
    }
}
