import Foundation

// MARK: - JSON
// One codec of a todo's JSON: written by `json(absentParents:)`, read back
// by `Decodable`. Export, the lists' --json, show, next and MCP's answers
// all come from the one writer.

extension TodoItem {
    /// The JSON form of todos, stable for scripts: an object per todo with the
    /// keys `id`, `text`, `done`, `createdAt`, `updatedAt`, `completedAt`, `due`,
    /// `priority`, `tags`, `note`, `repeat`, `project`, `wait`, `scheduled`,
    /// `until`, `parent`, `blockedBy`, in that order; times are ISO 8601 UTC
    /// with milliseconds, `completedAt` is null when not done; `due` is
    /// `2026-12-01` or such a time; `tags` and `blockedBy` are sorted arrays, the others null when
    /// unset; `parent` is null where the parent no longer exists (the todos
    /// named in `absentParents`, which every writer asks for). One codec for
    /// every front end: `todo list --json`, `export`, `show`, MCP's answers;
    /// written by hand so a million todos stream out quickly, and read back by
    /// `Decodable` below.
    public func json(absentParents: Set<UUID> = []) -> String {
        let item = showing(absentParents: absentParents)
        var out = "{\"id\":\""
        out += item.idString
        out += "\",\"text\":"
        JSONText.append(item.text, to: &out)
        out += item.isDone ? ",\"done\":true" : ",\"done\":false"
        out += ",\"createdAt\":\"" + ISO8601.string(from: item.createdAt)
        out += "\",\"updatedAt\":\"" + ISO8601.string(from: item.updatedAt) + "\""
        if let completedAt = item.completedAt {
            out += ",\"completedAt\":\"" + ISO8601.string(from: completedAt) + "\""
        } else {
            out += ",\"completedAt\":null"
        }
        out += ",\"due\":"
        JSONText.appendOptional(item.due?.text, to: &out)
        out += ",\"priority\":"
        JSONText.appendOptional(item.priority?.rawValue, to: &out)
        out += ",\"tags\":["
        for (index, tag) in item.tags.enumerated() {
            if index > 0 { out += "," }
            JSONText.append(tag, to: &out)
        }
        out += "],\"note\":"
        JSONText.appendOptional(item.note, to: &out)
        out += ",\"repeat\":"
        JSONText.appendOptional(item.recurrence?.description, to: &out)
        out += ",\"project\":"
        JSONText.appendOptional(item.project, to: &out)
        out += ",\"wait\":"
        JSONText.appendOptional(item.wait?.text, to: &out)
        out += ",\"scheduled\":"
        JSONText.appendOptional(item.scheduled?.text, to: &out)
        out += ",\"until\":"
        JSONText.appendOptional(item.until?.text, to: &out)
        if let parent = item.parent {
            out += ",\"parent\":\"" + parent.lowercasedString + "\""
        } else {
            out += ",\"parent\":null"
        }
        out += ",\"blockedBy\":["
        for (index, blocker) in item.blockedBy.enumerated() {
            out += (index > 0 ? ",\"" : "\"") + blocker.lowercasedString + "\""
        }
        out += "]}"
        return out
    }
}

/// JSON string literals, escaped as RFC 8259 asks.
public enum JSONText {
    public static func appendOptional(_ text: String?, to out: inout String) {
        if let text { append(text, to: &out) } else { out += "null" }
    }

    /// A JSON string literal of `text`.
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// Appends the JSON string literal of `text`.
    public static func append(_ text: String, to out: inout String) {
        out += "\""
        var plainStart = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String? = switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20:
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: nil
            }
            if let escape {
                out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                out += escape
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        out.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        out += "\""
    }
}

// MARK: - Reading it back

extension TodoItem {
    /// The JSON field names: `done` reads better than `isDone` in a script.
    enum CodingKeys: String, CodingKey {
        case id, text
        case isDone = "done"
        case createdAt, updatedAt, completedAt
        case due, priority, tags, note
        case recurrence = "repeat"
        case project, wait, scheduled, until, parent, blockedBy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let createdAt = try container.decode(Date.self, forKey: .createdAt)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            text: try container.decode(String.self, forKey: .text),
            isDone: try container.decodeIfPresent(Bool.self, forKey: .isDone) ?? false,
            createdAt: createdAt,
            updatedAt: try container.decodeIfPresent(Date.self, forKey: .updatedAt),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt),
            due: try Self.decodeField(container, .due) { TodoDue(text: $0) },
            priority: try Self.decodeField(container, .priority) { TodoPriority(parsing: $0) },
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            note: try container.decodeIfPresent(String.self, forKey: .note),
            recurrence: try Self.decodeField(container, .recurrence) { TodoRepeat(parsing: $0) },
            project: try Self.decodeField(container, .project) { try? TodoProject.validated($0) },
            wait: try Self.decodeField(container, .wait) { TodoDue(text: $0) },
            scheduled: try Self.decodeField(container, .scheduled) { TodoDue(text: $0) },
            until: try Self.decodeField(container, .until) { TodoDue(text: $0) },
            parent: try Self.decodeField(container, .parent) { UUID(parsing: $0) },
            blockedBy: try container.decodeIfPresent([String].self, forKey: .blockedBy).map { texts in
                try texts.map { text in
                    guard let id = UUID(parsing: text) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .blockedBy, in: container, debugDescription: "'\(text)' is not a todo's ID")
                    }
                    return id
                }
            } ?? []
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(idString, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encode(isDone, forKey: .isDone)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(completedAt, forKey: .completedAt)
        try container.encode(due?.text, forKey: .due)
        try container.encode(priority?.rawValue, forKey: .priority)
        try container.encode(tags, forKey: .tags)
        try container.encode(note, forKey: .note)
        try container.encode(recurrence?.description, forKey: .recurrence)
        try container.encode(project, forKey: .project)
        try container.encode(wait?.text, forKey: .wait)
        try container.encode(scheduled?.text, forKey: .scheduled)
        try container.encode(until?.text, forKey: .until)
        try container.encode(parent?.lowercasedString, forKey: .parent)
        try container.encode(blockedBy.map { $0.lowercasedString }, forKey: .blockedBy)
    }

    /// A text field read by `parse`: missing or null is nil, text it cannot read is an error.
    private static func decodeField<Value>(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, _ parse: (String) -> Value?
    ) throws -> Value? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(text)' is not a valid \(key.stringValue)")
        }
        return value
    }
}
