import Foundation
import TodoSync
import TodoCore

/// A todo as a tool answers it: the object `todo list --json` prints
/// (`TodoJSON`), key for key, built as a value for structured content.
enum TodoValue {
    static func value(_ item: TodoItem) -> JSONValue {
        .object([
            "id": .string(item.idString),
            "text": .string(item.text),
            "done": .bool(item.isDone),
            "createdAt": .string(ISO8601.string(from: item.createdAt)),
            "updatedAt": .string(ISO8601.string(from: item.updatedAt)),
            "completedAt": item.completedAt.map { .string(ISO8601.string(from: $0)) } ?? .null,
            "due": item.due.map { .string($0.text) } ?? .null,
            "priority": item.priority.map { .string($0.rawValue) } ?? .null,
            "tags": .array(item.tags.map { .string($0) }),
            "note": item.note.map { .string($0) } ?? .null,
            "repeat": item.recurrence.map { .string($0.description) } ?? .null,
        ])
    }
}

/// Where the next page of `list_todos` starts, as an opaque string: how many
/// todos the pages before it held, and the filters it lists by, so a cursor
/// given with other filters is refused rather than answering the wrong page.
struct ListCursor {
    let offset: Int
    let filters: String

    init(offset: Int, listing request: TodoRequest, due: String?) {
        self.offset = offset
        filters = Self.filters(request, due: due)
    }

    /// Reads a cursor given back (none: the first page).
    init(_ text: String?, listing request: TodoRequest, due: String?) throws(ToolError) {
        filters = Self.filters(request, due: due)
        guard let text else {
            offset = 0
            return
        }
        let invalid = ToolError("'cursor' is not a cursor list_todos gave: call list_todos without it for the first page")
        guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8),
              let newline = decoded.firstIndex(of: "\n"), let offset = Int(decoded[..<newline]), offset >= 0 else {
            throw invalid
        }
        guard decoded[decoded.index(after: newline)...] == filters else {
            throw ToolError("this cursor belongs to a listing with other filters: give the same filters as the first page, or no cursor")
        }
        self.offset = offset
    }

    var text: String { Data("\(offset)\n\(filters)".utf8).base64EncodedString() }

    private static func filters(_ request: TodoRequest, due: String?) -> String {
        let status = switch request.status {
        case .pending: "pending"
        case .done: "done"
        case .all: "all"
        }
        let fields = [status, request.query, request.tags.joined(separator: ","), due ?? "", request.priority?.rawValue ?? "", request.sort.rawValue]
        return fields.map { $0.replacingOccurrences(of: "\u{1F}", with: "") }.joined(separator: "\u{1F}")
    }
}
