import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: todo next
// The ranking of `selectNextTodos`, computed by SQLite over the todos the
// filter selects: every term in whole millionths, so the order is exactly
// the selector's (`NextPropertyTests`).

extension AppDatabase {
    /// Calls `body` with each todo `request` ranks first, most urgent first.
    /// Return false to stop early.
    public func forEachNext(_ request: NextRequest, _ body: (RankedTodo) throws -> Bool) throws {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                var remaining = request.limit
                let statement = Self.nextSQL(request)
                let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
                while remaining > 0, let row = try cursor.next() {
                    guard let item = TodoItem(row: row), item.matches(request.filter.query) else { continue }
                    remaining -= 1
                    let ranked = RankedTodo(todo: ListedTodo(item: item, idPrefixLength: row[6]), urgency: row[TodoItem.selectionCount])
                    guard try body(ranked) else { return }
                }
            }
        }
    }

    /// The statement that ranks: the filter's tables and conditions, the
    /// urgency as a column, sorted by it and then in list order.
    static func nextSQL(_ request: NextRequest) -> ListStatement {
        let filtered = filteredSource(request.filter, key: TodoItem.searchKey(request.filter.query))
        let (urgency, values) = urgencySQL(request)
        var arguments = values
        _ = arguments.append(contentsOf: filtered.arguments)
        // With a query to confirm in Swift, SQLite cannot know how many to keep.
        let limit = request.filter.query.isEmpty ? " LIMIT \(max(0, request.limit))" : ""
        // A todo an open todo blocks waits for it.
        let unblocked = "(todo.blockedBy IS NULL OR \(notBlocked))"
        let whereClause = filtered.whereClause.isEmpty ? " WHERE \(unblocked)" : filtered.whereClause + " AND \(unblocked)"
        return ListStatement(
            sql: """
                SELECT \(TodoItem.selection), \(urgency) AS urgency FROM \(filtered.source)\(whereClause) \
                ORDER BY urgency DESC, \(filtered.newestFirst)\(limit)
                """,
            arguments: arguments
        )
    }

    /// No open todo among the row's blockers: each looked up by its id
    /// (CROSS JOIN; left to itself, SQLite walked every pending todo for each
    /// blocker, and `todo next` over 15,000 links took minutes).
    static let notBlocked = """
        NOT EXISTS (SELECT 1 FROM json_each(todo.blockedBy) AS blocker CROSS JOIN todo AS other ON other.id = blocker.value \
        WHERE other.isDone = 0)
        """

    /// The ids open todos name as blockers, each as often as it is named:
    /// from the index of blocked todos (`todo_on_isDone_blockedBy`).
    static let blockingIDs = """
        SELECT blocker.value FROM todo AS other, json_each(other.blockedBy) AS blocker \
        WHERE other.blockedBy IS NOT NULL AND other.isDone = 0
        """

    /// `Urgency.micros(of:)` as an SQL expression over a `todo` row, and its values.
    static func urgencySQL(_ request: NextRequest) -> (String, StatementArguments) {
        let weights = request.weights
        let now = request.now
        let offset = request.timeZone.secondsFromGMT(for: now)
        let today = CalendarDay(now, in: request.timeZone).description, moment = ISO8601.string(from: now)
        let limit = Int64(min(max(1, weights.ageLimitDays), UrgencyWeights.longestAgeLimit)) * 86_400
        let micros: (Double) -> Int64 = { Urgency.micros($0) }
        // Seconds overdue: `Urgency.second(of:offset:)` from now's second
        // (`unixepoch` is `strftime('%s')` without the text between).
        let overdue = "(? - (unixepoch(todo.due) - CASE WHEN length(todo.due) = 10 THEN ? ELSE 0 END))"
        let nowSecond = Int64((now.timeIntervalSince1970).rounded(.down))
        let due = micros(weights.due)
        let sql = """
            (CASE WHEN instr(todo.tags, '"next"') > 0 THEN ? ELSE 0 END
            + CASE WHEN todo.due IS NULL THEN 0
                ELSE ? * ((min(max(\(overdue), -1209600), 604800) + 1209600) * 4 + 1814400) / 9072000 END
            + CASE todo.priority WHEN 1 THEN ? WHEN 2 THEN ? WHEN 3 THEN ? ELSE 0 END
            + CASE WHEN todo.scheduled IS NOT NULL AND CASE WHEN length(todo.scheduled) = 10 THEN todo.scheduled <= ? ELSE todo.scheduled <= ? END
                THEN ? ELSE 0 END
            + CASE WHEN todo.start IS NULL THEN 0 ELSE ? END
            + ? * min(max(? - todo.createdAt, 0) / 1000, ?) / ?
            + CASE WHEN todo.note IS NULL THEN 0 ELSE ? * 8 / 10 END
            + CASE WHEN todo.tags IS NULL THEN 0 ELSE ? * (CASE json_array_length(todo.tags) WHEN 0 THEN 0 WHEN 1 THEN 8 WHEN 2 THEN 9 ELSE 10 END) / 10 END
            + CASE WHEN todo.project IS NULL THEN 0 ELSE ? END
            + CASE WHEN todo.id IN (\(blockingIDs)) THEN ? ELSE 0 END)
            """
        let arguments: StatementArguments = [
            micros(weights.nextTag),
            // The due term, `Urgency.dueMicros` in one evaluation: overdue
            // clamped to the line's ends, where it gives the weight and a fifth.
            due, nowSecond, offset,
            micros(weights.priorityHigh), micros(weights.priorityMedium), micros(weights.priorityLow),
            today, moment, micros(weights.scheduled),
            micros(weights.active),
            micros(weights.age), now.millisecondsSince1970, limit, limit,
            micros(weights.note),
            micros(weights.tags),
            micros(weights.project),
            micros(weights.blocking),
        ]
        return (sql, arguments)
    }
}
