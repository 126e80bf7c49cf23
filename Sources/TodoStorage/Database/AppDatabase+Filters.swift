import Foundation
import GRDB
import TodoCore

// MARK: - The planning filters as SQL
// Each gives a condition on the `todo` row and its values, and keeps exactly
// the todos its filter's `includes` keeps (`FilterPropertyTests`).

extension AppDatabase {
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
                    + "AND (todo.until IS NULL OR todo.isDone OR CASE WHEN length(todo.until) = 10 THEN todo.until >= ? ELSE todo.until >= ? END)))",
                [today, moment, today, moment]
            )
        case let .waiting(now, timeZone):
            let today = CalendarDay(now, in: timeZone).description, moment = ISO8601.string(from: now)
            return ("todo.wait IS NOT NULL AND NOT (\(reached("todo.wait")))", [today, moment])
        }
    }
}
