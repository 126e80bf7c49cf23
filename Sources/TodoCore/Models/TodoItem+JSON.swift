import Foundation

// MARK: - JSON
// One codec of a todo's JSON: written by `json(absentParents:)`, read back
// by `Decodable`. Export, the lists' --json, show, next and MCP's answers
// all come from the one writer.

extension TodoItem {
    /// The JSON form of todos, stable for scripts: an object per todo with the
    /// keys `id`, `text`, `done`, `createdAt`, `updatedAt`, `completedAt`, then
    /// each other field's key (`TodoField.key`: `due`, `priority`, `tags`,
    /// `note`, `repeat`, `project`, …, `blockedBy`), in that order; times are
    /// ISO 8601 UTC with milliseconds, `completedAt` is null when not done; a
    /// date is `2026-12-01` or such a time; `tags` and `blockedBy` are sorted
    /// arrays, the others null when unset; `parent` is null where the parent
    /// no longer exists (the todos named in `absentParents`, which every
    /// writer asks for). One codec for every front end: `todo list --json`,
    /// `export`, `show`, MCP's answers, sync's push; written by hand so a
    /// million todos stream out quickly, and read back by `Decodable` below.
    public func json(absentParents: Set<UUID> = []) -> String {
        let item = showing(absentParents: absentParents)
        var out = "{\"id\":\""
        out += item.idString
        out += "\""
        func append(_ field: TodoField) {
            out += Self.jsonKeys[field.index]
            switch item[value: field] {
            case .none: out += "null"
            case let .flag(flag): out += flag ? "true" : "false"
            case let .text(text): JSONText.append(text, to: &out)
            case let .list(list):
                out += "["
                for (index, element) in list.enumerated() {
                    if index > 0 { out += "," }
                    JSONText.append(element, to: &out)
                }
                out += "]"
            }
        }
        append(.text)
        append(.done)
        out += ",\"createdAt\":\"" + ISO8601.string(from: item.createdAt)
        out += "\",\"updatedAt\":\"" + ISO8601.string(from: item.updatedAt) + "\""
        if let completedAt = item.completedAt {
            out += ",\"completedAt\":\"" + ISO8601.string(from: completedAt) + "\""
        } else {
            out += ",\"completedAt\":null"
        }
        for field in TodoField.planning { append(field) }
        out += "}"
        return out
    }

    /// `,"key":` for each field, by its index: made once, not three strings
    /// a field and a todo.
    private static let jsonKeys = TodoField.allCases.map { ",\"\($0.key)\":" }
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
        // Most texts need no escape: appended whole, not scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += text
            out += "\""
            return
        }
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
    /// A key of todo JSON: a field's (`TodoField.key`) or one of the todo's own.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let id = Key("id"), createdAt = Key("createdAt"), updatedAt = Key("updatedAt"), completedAt = Key("completedAt")
    }

    /// Reads what `json(absentParents:)` writes: the id, the text and the
    /// creation date are needed, every other key may be missing or null. A
    /// value a field cannot hold (a date that is none) is an error; a project
    /// that is not one is left out, as sync leaves it out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            text: try container.decode(String.self, forKey: Key(TodoField.text.key)),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decodeIfPresent(Date.self, forKey: .updatedAt),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt)
        )
        for field in TodoField.allCases where field != .text {
            let key = Key(field.key)
            let value: FieldValue = switch field.kind {
            case .flag: try container.decodeIfPresent(Bool.self, forKey: key).map(FieldValue.flag) ?? .flag(false)
            case .tags, .todos: .list(try container.decodeIfPresent([String].self, forKey: key) ?? [])
            case .project: (try container.decodeIfPresent(String.self, forKey: key))
                .flatMap { try? TodoProject.validated($0) }.map(FieldValue.text) ?? .none
            default: try container.decodeIfPresent(String.self, forKey: key).map(FieldValue.text) ?? .none
            }
            guard set(field, to: value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(value.description)' is not a valid \(field.key)")
            }
        }
        // Kept as every todo keeps them: tags sorted and distinct, times to the millisecond.
        tags = TodoTags.normalized(tags)
        due = due?.roundedToMilliseconds
        planBox = planBox?.roundedToMilliseconds
    }

    /// A decoder of what `json(absentParents:)` writes: dates as ISO 8601
    /// text, with or without milliseconds.
    public static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date such as 2026-11-21T09:30:00.000Z"
                )
            }
            return date
        }
        return decoder
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(idString, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(completedAt, forKey: .completedAt)
        for field in TodoField.allCases {
            let key = Key(field.key)
            switch self[value: field] {
            case .none: try container.encodeNil(forKey: key)
            case let .flag(flag): try container.encode(flag, forKey: key)
            case let .text(text): try container.encode(text, forKey: key)
            case let .list(list): try container.encode(list, forKey: key)
            }
        }
    }
}
