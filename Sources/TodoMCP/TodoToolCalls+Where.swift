import Foundation
import TodoCore
import TodoSync

// MARK: - Todos by filter: list_todos, where, next_todos

extension TodoToolCalls {
    /// The filters a change's `where` takes: list_todos' own.
    static let whereFilters = ["query", "status", "due", "tags", "priority", "project"]

    /// A change by `where` of more todos than this is made only right after
    /// its dry run, as the command line asks above three.
    nonisolated static let confirmAbove = 3

    /// What list_todos' filters (or a `where`'s) select, pending ones unless
    /// `status` says otherwise, as `todo list` shows them at `now`.
    func request(_ arguments: ToolArguments, status defaultStatus: TodoRequest.Status) throws -> TodoRequest {
        let status: TodoRequest.Status = switch try arguments.choice("status", ["pending", "done", "all"]) {
        case "pending": .pending
        case "done": .done
        case "all": .all
        default: defaultStatus
        }
        var tags: [String] = []
        for tag in try arguments.strings("tags") {
            do { tags.append(try TodoTags.validated(tag)) } catch { throw ToolError(String(describing: error)) }
        }
        var request = TodoRequest(
            status: status, query: try arguments.string("query") ?? "", tags: tags,
            priority: try arguments.choice("priority", ["high", "medium", "low"]).flatMap(TodoPriority.init(parsing:)).map { .level($0) },
            schedule: .current(at: now(), in: timeZone),
            sort: TodoRequest.Sort(rawValue: try arguments.choice("sort", ["created", "due", "priority"]) ?? "created") ?? .created
        )
        if let project = try arguments.string("project") {
            do {
                request.project = project.lowercased() == "none" ? .unset : .within(try TodoProject.validated(project))
            } catch {
                throw ToolError(String(describing: error))
            }
        }
        if let due = try arguments.string("due") {
            do {
                request.due = try DueFilter(parsing: due, now: now(), in: timeZone)
            } catch {
                throw ToolError("'\(due)' is not a due filter: use overdue, today, tomorrow, week, 7d (the next 7 days), or a date such as fri, +3d or 2026-12-01")
            }
        }
        return request
    }

    /// The todos a changing tool's call names: its `ids`, or those its
    /// `where` selects (`selected`).
    func named(_ arguments: ToolArguments, status: TodoRequest.Status, dryRun: Bool) async throws -> [String] {
        guard arguments.has("where") else { return try arguments.ids() }
        guard !arguments.has("ids") else { throw ToolError("\(arguments.tool) takes 'ids' or 'where', not both") }
        return try await selected(arguments, status: status, dryRun: dryRun)
    }

    /// The todos `where` selects, by their full IDs. More than
    /// `confirmAbove` are changed only right after a dry run of the same
    /// call that selected the same todos: the person sees what will change
    /// before it does, as the command line asks first.
    func selected(_ arguments: ToolArguments, status: TodoRequest.Status, dryRun: Bool) async throws -> [String] {
        guard let (filters, value) = try arguments.object("where", accepted: Self.whereFilters) else {
            throw ToolError("'where' must be an object of list_todos' filters, e.g. {\"tags\": [\"errands\"], \"due\": \"today\"}")
        }
        var ids: [UUID] = []
        try await logic.readTodos(try request(filters, status: status)) { ids.append($0.id); return true }
        guard !ids.isEmpty else {
            throw ToolError("'where' selects no todo: list_todos with the same filters shows what there is")
        }
        let tool = arguments.tool
        defer { lastDryRun = dryRun ? (tool, value, Set(ids)) : nil }
        if !dryRun, ids.count > Self.confirmAbove {
            guard let last = lastDryRun, last.tool == tool, last.where == value else {
                throw ToolError(
                    "'where' selects \(ids.count) todos, more than \(Self.confirmAbove): call \(tool) with this where and dry_run: true first, "
                        + "show the person what it would change, then call it again without dry_run"
                )
            }
            guard last.ids == Set(ids) else {
                throw ToolError("the todos 'where' selects changed since the dry run: call \(tool) with dry_run: true again")
            }
        }
        return ids.map(\.lowercasedString)
    }

    /// `todo next`: the pending todos most urgent now, with their urgency.
    func nextTodos(_ arguments: ToolArguments) async throws -> JSONValue {
        var filter = try request(arguments, status: .pending)
        filter.excludedTags = try arguments.strings("not_tags").map { tag in
            do { return try TodoTags.validated(tag) } catch { throw ToolError(String(describing: error)) }
        }
        let limit = try arguments.integer("limit", in: 1...TodoToolCatalog.maximumLimit) ?? 20
        let ranked = try await logic.nextTodos(NextRequest(filter: filter, weights: weights, now: now(), timeZone: timeZone, limit: limit))
        let absent = try await logic.absentParents(of: ranked.map(\.todo.item))
        return .object([
            "todos": .array(ranked.map { ranked in
                guard case var .object(todo) = TodoValue.value(ranked.todo.item, absentParents: absent) else { return .null }
                todo["urgency"] = .number(Double(ranked.urgency) / 1_000_000)
                return .object(todo)
            }),
        ])
    }
}
