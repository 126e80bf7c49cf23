import Foundation
import TodoCore

/// The JSON form of todos, stable for scripts: an object per todo with the
/// keys `id`, `text`, `done`, `createdAt`, `updatedAt`, `completedAt`, `due`,
/// `priority`, `tags`, `note`, `repeat`, `project`, `wait`, `scheduled`,
/// `until`, `parent`, `blockedBy`, in that order; times are ISO 8601 UTC
/// with milliseconds, `completedAt` is null when not done; `due` is
/// `2026-12-01` or such a time; `tags` and `blockedBy` are sorted arrays, the others null when
/// unset; `parent` is null where the parent no longer exists (the todos
/// named in `absentParents`, which every writer asks for). Written by hand
/// so a million todos stream out quickly; `TodoItem`'s `Codable`
/// conformance reads the same form back.
enum TodoJSON {
    static func object(_ item: TodoItem, absentParents: Set<UUID>) -> String {
        let item = item.showing(absentParents: absentParents)
        var out = "{\"id\":\""
        out += item.idString
        out += "\",\"text\":"
        appendString(item.text, to: &out)
        out += item.isDone ? ",\"done\":true" : ",\"done\":false"
        out += ",\"createdAt\":\"" + ISO8601.string(from: item.createdAt)
        out += "\",\"updatedAt\":\"" + ISO8601.string(from: item.updatedAt) + "\""
        if let completedAt = item.completedAt {
            out += ",\"completedAt\":\"" + ISO8601.string(from: completedAt) + "\""
        } else {
            out += ",\"completedAt\":null"
        }
        out += ",\"due\":"
        appendOptional(item.due?.text, to: &out)
        out += ",\"priority\":"
        appendOptional(item.priority?.rawValue, to: &out)
        out += ",\"tags\":["
        for (index, tag) in item.tags.enumerated() {
            if index > 0 { out += "," }
            appendString(tag, to: &out)
        }
        out += "],\"note\":"
        appendOptional(item.note, to: &out)
        out += ",\"repeat\":"
        appendOptional(item.recurrence?.description, to: &out)
        out += ",\"project\":"
        appendOptional(item.project, to: &out)
        out += ",\"wait\":"
        appendOptional(item.wait?.text, to: &out)
        out += ",\"scheduled\":"
        appendOptional(item.scheduled?.text, to: &out)
        out += ",\"until\":"
        appendOptional(item.until?.text, to: &out)
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

    /// Writes a JSON array, one todo per line, as `forEach` produces them.
    static func writeArray(
        to output: OutputBuffer, absentParents: Set<UUID>, _ forEach: ((TodoItem) -> Void) throws -> Void
    ) rethrows {
        var array = ArrayWriter(to: output, absentParents: absentParents)
        try forEach { array.write($0) }
        array.finish()
    }

    /// A JSON array of todos written as they come, one per line.
    struct ArrayWriter {
        let output: OutputBuffer
        let absentParents: Set<UUID>
        private var isEmpty = true

        init(to output: OutputBuffer, absentParents: Set<UUID>) {
            self.output = output
            self.absentParents = absentParents
            output.write("[")
        }

        mutating func write(_ item: TodoItem) {
            output.write(isEmpty ? "\n" : ",\n")
            isEmpty = false
            output.write(TodoJSON.object(item, absentParents: absentParents))
        }

        func finish() {
            output.write(isEmpty ? "]\n" : "\n]\n")
        }
    }

    static func appendOptional(_ text: String?, to out: inout String) {
        if let text { appendString(text, to: &out) } else { out += "null" }
    }

    /// A JSON string literal of `text`.
    static func string(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }

    static func appendString(_ text: String, to out: inout String) {
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

    /// A decoder for the JSON form: accepts dates with or without milliseconds.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 date such as 2026-11-21T09:30:00.000Z"
                )
            }
            return date
        }
        return decoder
    }
}
