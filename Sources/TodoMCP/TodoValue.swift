import Foundation
import TodoSync
import TodoCore

/// A todo as a tool answers it: the object `todo list --json` prints, from
/// the same writer (`TodoItem.json`), as a value for structured content;
/// `parent` null where it no longer exists (one of `absentParents`).
enum TodoValue {
    static func value(_ item: TodoItem, absentParents: Set<UUID>) -> JSONValue {
        // The writer's output is JSON by construction (TodoJSONTests).
        (try? JSONValue.parse(Array(item.json(absentParents: absentParents).utf8))) ?? .null
    }
}

/// Where the next page of `list_todos` starts, as an opaque string: the
/// last todo listed, with its place in the order (creation time, due date,
/// priority), and the filters, so a cursor given with other filters is
/// refused rather than answering the wrong page.
struct ListCursor {
    /// The last todo listed, nil for the first page.
    let after: UUID?
    private let createdAt: Int64
    private let due: String?
    private let rank: Int?
    let filters: String

    init(after item: TodoItem, listing request: TodoRequest, due dueFilter: String?) {
        after = item.id
        createdAt = item.createdAt.millisecondsSince1970
        due = item.due?.text
        rank = item.priority?.rank
        filters = Self.filters(request, due: dueFilter)
    }

    /// Reads a cursor given back (none: the first page).
    init(_ text: String?, listing request: TodoRequest, due dueFilter: String?) throws(ToolError) {
        filters = Self.filters(request, due: dueFilter)
        guard let text else {
            (after, createdAt, due, rank) = (nil, 0, nil, nil)
            return
        }
        let invalid = ToolError("'cursor' is not a cursor list_todos gave: call list_todos without it for the first page")
        guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8) else { throw invalid }
        let parts = decoded.split(separator: "\n", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, let after = UUID(uuidString: parts[0]), let createdAt = Int64(parts[1]),
              parts[3].isEmpty || Int(parts[3]) != nil else {
            throw invalid
        }
        guard parts[4] == filters else {
            throw ToolError("this cursor belongs to a listing with other filters: give the same filters as the first page, or no cursor")
        }
        (self.after, self.createdAt, due, rank) = (after, createdAt, parts[2].isEmpty ? nil : parts[2], Int(parts[3]))
    }

    var text: String {
        let fields = [after?.lowercasedString ?? "", String(createdAt), due ?? "", rank.map(String.init) ?? "", filters]
        return Data(fields.joined(separator: "\n").utf8).base64EncodedString()
    }

    enum Place { case before, level, after }

    /// Where `item` stands against the last todo listed, in the order
    /// `selectRequestedTodos` sorts by: the sort's key (none last), then
    /// newest first.
    func place(of item: TodoItem, sortedBy sort: TodoRequest.Sort) -> Place {
        guard after != nil else { return .after }
        let order: Int = switch sort {
        case .created: 0
        case .due: Self.compare(item.due?.text, due)
        case .priority: Self.compare(item.priority?.rank, rank)
        }
        if order != 0 { return order < 0 ? .before : .after }
        let created = item.createdAt.millisecondsSince1970
        return created > createdAt ? .before : created < createdAt ? .after : .level
    }

    /// Ascending, with none last.
    private static func compare<Key: Comparable>(_ left: Key?, _ right: Key?) -> Int {
        switch (left, right) {
        case let (left?, right?): left < right ? -1 : left > right ? 1 : 0
        case (.some, nil): -1
        case (nil, .some): 1
        case (nil, nil): 0
        }
    }

    private static func filters(_ request: TodoRequest, due: String?) -> String {
        let status = switch request.status {
        case .pending: "pending"
        case .done: "done"
        case .all: "all"
        }
        let priority = switch request.priority {
        case let .level(level)?: level.rawValue
        case .unset?: "none"
        case nil: ""
        }
        let project = switch request.project {
        case let .within(name)?: name
        case .unset?: "\u{1E}none"
        case nil: ""
        }
        let fields = [status, request.query, request.tags.joined(separator: ","), due ?? "", priority, request.sort.rawValue, project]
        return fields.map { $0.replacingOccurrences(of: "\u{1F}", with: "").replacingOccurrences(of: "\n", with: " ") }
            .joined(separator: "\u{1F}")
    }
}
