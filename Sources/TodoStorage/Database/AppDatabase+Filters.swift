import Foundation
import GRDB
import TodoCore

// MARK: - The planning filters as SQL
// Each gives a condition on the `todo` row and its values, and keeps exactly
// the todos its filter's `includes` keeps (`FilterPropertyTests`).

extension AppDatabase {
    /// The tables and the WHERE clause that select what `request` filters
    /// (its status, query, tags, due, priority, project and schedule), with
    /// the list order those tables give without sorting.
    struct FilteredSource {
        var source = "todo"
        var conditions: [String] = []
        var arguments = StatementArguments()
        var newestFirst = "todo.createdAt DESC, todo.seq DESC"

        var whereClause: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }
    }

    /// With `among` (a JSON array of ids), only those todos, looked up by id:
    /// no search or tag index drives it then (a few todos of many).
    static func filteredSource(_ request: TodoRequest, key: String, among ids: String? = nil) -> FilteredSource {
        var filtered = FilteredSource()
        var isDoneColumn = "todo.isDone"
        var tags = request.tags[...]
        let trigrams = key.isEmpty || ids != nil ? [] : Self.trigrams(key)
        if let ids {
            // CROSS JOIN: from the ids to their rows, not from every todo to the ids.
            filtered.source = "json_each(?) AS wanted CROSS JOIN todo ON todo.id = wanted.value"
            _ = filtered.arguments.append(contentsOf: [ids])
        } else if !trigrams.isEmpty {
            // CROSS JOIN makes SQLite start from the index hits instead of
            // walking every todo and probing the index for each.
            filtered.source = "todoSearch CROSS JOIN todo ON todo.seq = todoSearch.rowid"
            filtered.conditions.append("todoSearch MATCH ?")
            _ = filtered.arguments.append(contentsOf: [trigrams.map(Self.quotedFTSString).joined(separator: " AND ")])
        } else if let tag = tags.popFirst() {
            // The tag's rows, by status, newest first: the list order without sorting.
            filtered.source = "todoTag CROSS JOIN todo ON todo.seq = todoTag.seq"
            filtered.conditions.append("todoTag.tag = ?")
            _ = filtered.arguments.append(contentsOf: [tag])
            filtered.newestFirst = "todoTag.createdAt DESC, todoTag.seq DESC"
            isDoneColumn = "todoTag.isDone"
        }
        if !key.isEmpty {
            filtered.conditions.append(Self.containsKeyCondition)
            _ = filtered.arguments.append(contentsOf: [Self.likePattern(containing: key)])
        }
        switch request.status {
        case .pending: filtered.conditions.append("\(isDoneColumn) = 0")
        case .done: filtered.conditions.append("\(isDoneColumn) = 1")
        case .all: break
        }
        for tag in tags {
            filtered.conditions.append("EXISTS (SELECT 1 FROM todoTag AS other WHERE other.seq = todo.seq AND other.tag = ?)")
            _ = filtered.arguments.append(contentsOf: [tag])
        }
        for tag in request.excludedTags {
            filtered.conditions.append("NOT EXISTS (SELECT 1 FROM todoTag AS other WHERE other.seq = todo.seq AND other.tag = ?)")
            _ = filtered.arguments.append(contentsOf: [tag])
        }
        switch request.priority {
        case let .level(priority)?:
            filtered.conditions.append("todo.priority = ?")
            _ = filtered.arguments.append(contentsOf: [priority.rank])
        case .unset?:
            filtered.conditions.append("todo.priority IS NULL")
        case nil:
            break
        }
        if let due = request.due {
            let (condition, values) = Self.dueCondition(due)
            filtered.conditions.append(condition)
            _ = filtered.arguments.append(contentsOf: values)
        }
        if let project = request.project {
            let (condition, values) = Self.projectCondition(project)
            filtered.conditions.append(condition)
            _ = filtered.arguments.append(contentsOf: values)
        }
        if let (condition, values) = Self.scheduleCondition(request.schedule) {
            filtered.conditions.append(condition)
            _ = filtered.arguments.append(contentsOf: values)
        }
        return filtered
    }

    /// The condition on `todo.due` of a due filter, and its values.
    ///
    /// A day (`2026-11-23`, 10 characters) and a moment (`2026-11-23T08:00:00.000Z`,
    /// UTC) sort together as text, the day among the moments of its UTC
    /// date, so each kind gets its own bounds; the first condition is one
    /// range that holds both, for the due index to walk.
    static func dueCondition(_ filter: DueFilter) -> (String, StatementArguments) {
        let range = "todo.due >= ? AND todo.due < ?"
        switch filter {
        case .unset:
            return ("todo.due IS NULL", [])
        case let .overdue(now, timeZone):
            let today = CalendarDay(now, in: timeZone).description
            let moment = ISO8601.string(from: now)
            return (
                "todo.due < ? AND CASE WHEN length(todo.due) = 10 THEN todo.due < ? ELSE todo.due < ? END",
                [max(today, moment), today, moment]
            )
        case let .within(days, timeZone):
            // The ends of all days (`--due-before`, `--due-after`) are open: "" sorts
            // before every due date, ":" after every one (they start with digits).
            let isFirstDay = days.lowerBound == DueFilter.allDays.lowerBound, isLastDay = days.upperBound == DueFilter.allDays.upperBound
            let first = isFirstDay ? "" : days.lowerBound.description
            let afterLast = isLastDay ? ":" : days.upperBound.adding(days: 1).description
            let start = isFirstDay ? "" : ISO8601.string(from: days.lowerBound.start(in: timeZone))
            let end = isLastDay ? ":" : ISO8601.string(from: days.upperBound.adding(days: 1).start(in: timeZone))
            return (
                "\(range) AND CASE WHEN length(todo.due) = 10 THEN \(range) ELSE \(range) END",
                [min(first, start), max(afterLast, end), first, afterLast, start, end]
            )
        }
    }

    /// The condition of a project filter: the project and its sub-projects
    /// (`home`, `home.…`), one range of the project index with the exact test
    /// inside it; or no project.
    static func projectCondition(_ filter: TodoRequest.ProjectFilter) -> (String, StatementArguments) {
        switch filter {
        case .unset:
            return ("todo.project IS NULL", [])
        case let .within(name):
            // [name, name + "/") holds `name`, `name.…` and some others ("name-x"): "/" follows ".".
            let child = name + "."
            return (
                "todo.project >= ? AND todo.project < ? AND (todo.project = ? OR substr(todo.project, 1, ?) = ?)",
                [name, name + "/", name, child.unicodeScalars.count, child]
            )
        }
    }

    /// A todo's until date not past: a day that is today or later, a moment
    /// not before now (its values: today, then now).
    static let untilNotPast = "CASE WHEN length(todo.until) = 10 THEN todo.until >= ? ELSE todo.until >= ? END"

    /// The condition of a schedule, nil for `any`. A date in `wait` or
    /// `until` is a day (10 characters) or a moment, each compared with its
    /// own form of now, as `dueCondition` does; most todos have neither, and
    /// pass on the first test.
    static func scheduleCondition(_ schedule: TodoRequest.Schedule) -> (String, StatementArguments)? {
        func reached(_ column: String) -> String {
            "CASE WHEN length(\(column)) = 10 THEN \(column) <= ? ELSE \(column) <= ? END"
        }
        switch schedule {
        case .any:
            return nil
        case let .current(now, timeZone):
            let today = CalendarDay(now, in: timeZone).description, moment = ISO8601.string(from: now)
            return (
                "((todo.wait IS NULL AND todo.until IS NULL) OR ((todo.wait IS NULL OR \(reached("todo.wait"))) "
                    + "AND (todo.until IS NULL OR todo.isDone OR \(untilNotPast))))",
                [today, moment, today, moment]
            )
        case let .waiting(now, timeZone):
            let today = CalendarDay(now, in: timeZone).description, moment = ISO8601.string(from: now)
            return ("todo.wait IS NOT NULL AND NOT (\(reached("todo.wait")))", [today, moment])
        }
    }
}
