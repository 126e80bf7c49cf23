import ArgumentParser
import Foundation
import TodoCore

/// `list`'s planning filters and order, read from its options; and the
/// reading of those options, which `next`, `context` and the changes by
/// filter (`SelectionOptions`) share with `list`, so each says the same
/// about a bad value.
struct ListFilters: Equatable, Sendable {
    var tags: [String] = []
    var excludedTags: [String] = []
    var due: DueFilter?
    var priority: TodoRequest.PriorityFilter?
    var project: TodoRequest.ProjectFilter?
    /// Only the todos still waiting; else none of them.
    var waiting = false
    var sort: TodoRequest.Sort = .created

    /// Whether a filter (not just an order) is given.
    var isFiltering: Bool { !tags.isEmpty || !excludedTags.isEmpty || due != nil || priority != nil || project != nil || waiting }

    /// What these filters select at `now`: the waiting todos; with `--all`
    /// (`status` all) every todo, as Taskwarrior's `all`, waiting ones and
    /// those past their until date too; else those a list shows. Narrowed by
    /// `context`, the one that is on.
    func request(status: TodoRequest.Status, query: String, limit: Int? = nil, now: Date = Date(), context: TodoContext?) -> TodoRequest {
        let schedule: TodoRequest.Schedule = waiting ? .waiting(at: now, in: .current) : status == .all ? .any : .current(at: now, in: .current)
        let request = TodoRequest(
            status: status, query: query, tags: tags, excludedTags: excludedTags, due: due, priority: priority, project: project,
            schedule: schedule, sort: sort, limit: limit
        )
        return context?.narrowing(request) ?? request
    }

    /// Taskwarrior's filter words (`+work`, `project:work`, `due:today`,
    /// `priority:H`; `-work` arrives as `--not-tag work`) among `words`, and
    /// the words that are none. One named by an option too (`given`) is refused.
    static func taskwarriorFilters(
        _ words: [String], given: (project: String?, due: String?, priority: PriorityArgument?)
    ) throws -> (tags: [String], project: String?, due: String?, priority: PriorityArgument?, rest: [String]) {
        var found: (tags: [String], project: String?, due: String?, priority: PriorityArgument?, rest: [String]) = ([], nil, nil, nil, [])
        for word in words {
            if word.hasPrefix("+"), word.dropFirst().first?.isLetter == true {
                found.tags.append(String(word.dropFirst()))
                continue
            }
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let field = TaskwarriorWords.field(named: parts[0]) else {
                found.rest.append(word)
                continue
            }
            let value = parts[1].isEmpty ? PlanningArguments.none : parts[1]
            switch field {
            case .project where given.project == nil: found.project = value
            case .due where given.due == nil: found.due = value
            case .priority where given.priority == nil:
                guard let level = PriorityArgument(argument: value) else { throw ValidationError(TodoFieldError.badPriority(value).description) }
                found.priority = level
            case .project, .due, .priority:
                throw ValidationError("'\(word)' and --\(field.rawValue) both filter by \(field.rawValue): give one of them")
            default:
                throw ValidationError("'\(word)': todo list filters by +tag, -tag, project:, due: and priority:; for \(field.rawValue), see todo list --help")
            }
        }
        return found
    }

    /// Refuses a tag that is no tag, and one both kept and left out.
    static func validate(tags: [String], excludedTags: [String]) throws {
        do {
            for tag in tags + excludedTags { _ = try TodoTags.validated(tag) }
        } catch {
            throw ValidationError(CommandLineError.words(error))
        }
        if let both = TodoTags.normalized(tags).first(where: TodoTags.normalized(excludedTags).contains) {
            throw ValidationError("--tag \(both) and --not-tag \(both) leave nothing to list: give one of them")
        }
    }

    /// What `--project` keeps: a project and its sub-projects, or (`none`) no project.
    static func projectFilter(_ project: String?) throws -> TodoRequest.ProjectFilter? {
        guard let project else { return nil }
        if project.lowercased() == PlanningArguments.none { return .unset }
        do {
            return .within(try TodoProject.validated(project))
        } catch {
            throw ValidationError(CommandLineError.words(error))
        }
    }

    /// What `--due`, `--due-before` and `--due-after` keep together, read at `now`.
    static func dueFilter(due: String?, before dueBefore: String?, after dueAfter: String?, now: Date, timeZone: TimeZone) throws -> DueFilter? {
        var filter = try due.map { try Self.dueFilter($0, now: now, timeZone: timeZone) }
        for (option, text, after) in [("--due-before", dueBefore, false), ("--due-after", dueAfter, true)] {
            guard let text else { continue }
            let bound: DueFilter
            do {
                bound = try DueFilter(parsing: text, after: after, now: now, in: timeZone)
            } catch {
                throw ValidationError("\(option): \(error)")
            }
            guard let current = filter else {
                filter = bound
                continue
            }
            guard let both = current.intersection(bound) else {
                throw ValidationError(
                    "--due, --due-before and --due-after together leave no day to be due on (overdue and none are no days): drop one"
                )
            }
            filter = both
        }
        return filter
    }

    /// What `--due` keeps, read at `now`.
    static func dueFilter(_ text: String, now: Date, timeZone: TimeZone) throws -> DueFilter {
        do {
            return try DueFilter(parsing: text, now: now, in: timeZone)
        } catch {
            throw ValidationError(
                "'\(text)' is not a due filter: use overdue, today, tomorrow, week, 7d (the next 7 days), or a date such as fri, +3d or 2026-12-01"
            )
        }
    }
}
