import Foundation
import TodoCore
import TodoSync

/// Carries out the tools' calls through `TodoLogic`, as the command line's
/// commands do: the same rules, the same undo journal, the same errors.
@MainActor
public final class TodoToolCalls {
    let logic: TodoLogic
    /// The tools offered: `tools/list` names them, and no other is called.
    let tools: [MCPTool]
    /// What the sync tool syncs with, or nil when no server is remembered.
    let syncer: (any TodoSyncing)?
    let now: () -> Date
    let timeZone: TimeZone
    /// What `next_todos` ranks by: the command line's configured weights.
    let weights: UrgencyWeights
    /// The last dry run of a change by `where` (its tool, its `where`, the
    /// todos it selected): a change of more than `confirmAbove` todos by
    /// `where` is made only right after its dry run.
    var lastDryRun: (tool: String, where: JSONValue, ids: Set<UUID>)?

    /// The most todos a change's answer lists one by one (an undo of a large
    /// import touches 100,000): the rest are counted in `omitted`.
    static let listedChanges = 200

    public init(
        logic: TodoLogic, tools: [MCPTool], syncer: (any TodoSyncing)?,
        now: @escaping () -> Date = { Date() }, timeZone: TimeZone = .current, weights: UrgencyWeights = .taskwarrior
    ) {
        self.logic = logic
        self.tools = tools
        self.syncer = syncer
        self.now = now
        self.timeZone = timeZone
        self.weights = weights
    }

    /// The answer to a call of `name`: its result, or a tool error (`isError`)
    /// carrying the same one line the command line would print. A tool that
    /// does not exist is a protocol error, as the specification says.
    func call(_ name: String, arguments: [String: JSONValue]?) async throws(RPCError) -> JSONValue {
        guard let tool = tools.first(where: { $0.name == name }) else {
            throw RPCError(.invalidParams, "unknown tool '\(name)': tools/list names the tools")
        }
        do {
            let arguments = try ToolArguments(tool: name, values: arguments, accepted: TodoToolCatalog.argumentNames(of: tool))
            return Self.answer(try await perform(name, arguments))
        } catch {
            return ["content": [["type": "text", "text": .string(await describe(error))]], "isError": true]
        }
    }

    private func perform(_ name: String, _ arguments: ToolArguments) async throws -> JSONValue {
        switch name {
        case "list_todos": try await listTodos(arguments)
        case "next_todos": try await nextTodos(arguments)
        case "get_todo": try await getTodo(arguments)
        case "add_todo": try await addTodo(arguments)
        case "edit_todo": try await editTodo(arguments)
        case "complete_todo": try await setDone(true, arguments)
        case "reopen_todo": try await setDone(false, arguments)
        case "delete_todo": try await deleteTodos(arguments)
        case "undo": try await undo(arguments)
        default: try await sync(arguments)
        }
    }

    /// Structured content, and the same JSON as text for clients that read only text.
    static func answer(_ value: JSONValue) -> JSONValue {
        ["content": [["type": "text", "text": .string(String(decoding: value.bytes, as: UTF8.self))]], "structuredContent": value]
    }

    // MARK: Reading

    private func getTodo(_ arguments: ToolArguments) async throws -> JSONValue {
        let item = try await logic.todos(idPrefixes: [arguments.requiredString("id")])[0].item
        return .object(["todo": TodoValue.value(item, absentParents: try await logic.absentParents(of: [item]))])
    }

    private func listTodos(_ arguments: ToolArguments) async throws -> JSONValue {
        let request = try request(arguments, status: .pending)
        let due = try arguments.string("due")
        let limit = try arguments.integer("limit", in: 1...TodoToolCatalog.maximumLimit) ?? 50
        let page = try ListCursor(arguments.string("cursor"), listing: request, due: due)
        let found = try await nextPage(request, after: page, limit: limit)
        let next = found.more ? found.todos.last.map { ListCursor(after: $0, listing: request, due: due).text } : nil
        let absent = try await logic.absentParents(of: found.todos)
        return .object([
            "todos": .array(found.todos.map { TodoValue.value($0, absentParents: absent) }), "next_cursor": next.map { .string($0) } ?? .null,
        ])
    }

    /// The page after `page`: the todos that sort after the last one the
    /// page before ended with, by the request's order, so todos added,
    /// completed or deleted above it shift nothing, and its own going away
    /// neither. Read from the top of the list, and decoded on the way:
    /// paging a million todos deep costs as much as listing them.
    private func nextPage(
        _ request: TodoRequest, after page: ListCursor, limit: Int
    ) async throws -> (todos: [TodoItem], more: Bool) {
        var found: [TodoItem] = []
        // Todos that sort level with the last one (the same key and the same
        // creation time): after it if it is met, else all of them.
        var level: [TodoItem] = []
        try await logic.readTodos(request) { item in
            switch page.place(of: item, sortedBy: request.sort) {
            case .before:
                return true
            case .level:
                if item.id == page.after { level = [] } else { level.append(item) }
                return true
            case .after:
                found += level
                level = []
                found.append(item)
                return found.count <= limit
            }
        }
        found += level
        return (Array(found.prefix(limit)), found.count > limit)
    }

    // MARK: Changing

    private func addTodo(_ arguments: ToolArguments) async throws -> JSONValue {
        let text = try arguments.requiredString("text")
        var edit = try edit(arguments, text: nil, tags: "tags")
        edit.note = try note(arguments)
        let dryRun = try arguments.bool("dry_run")
        let added = try await logic.addTodo(text: text, fields: edit, dryRun: dryRun)
        return try await change(dryRun: dryRun, summary: (dryRun ? "Would add “" : "Added “") + added.text + "”", [(nil, added)])
    }

    private func editTodo(_ arguments: ToolArguments) async throws -> JSONValue {
        var edit = try edit(arguments, text: try arguments.string("text"), tags: "add_tags", untags: "remove_tags")
        edit.note = try note(arguments)
        guard edit != TodoEdit() else {
            throw ToolError("nothing to change: give text, due, priority, add_tags, remove_tags, note or repeat")
        }
        let dryRun = try arguments.bool("dry_run")
        if arguments.has("where") {
            let ids = try await selected(arguments, status: .pending, dryRun: dryRun)
            let pairs = try await logic.editTodos(idPrefixes: ids, edit: edit, dryRun: dryRun)
            return try await change(
                dryRun: dryRun, summary: (dryRun ? "Would edit " : "Edited ") + Self.naming(pairs.map(\.after)),
                pairs.map { ($0.before, $0.after) }, detail: try arguments.bool("detail")
            )
        }
        let id = try arguments.requiredString("id")
        try await logic.checkPrefixesForChange([id])
        let before = try await logic.todos(idPrefixes: [id])[0].item
        let after = try await logic.editTodo(idPrefix: id, edit: edit, dryRun: dryRun)
        return try await change(dryRun: dryRun, summary: (dryRun ? "Would edit “" : "Edited “") + after.text + "”", [(before, after)])
    }

    private func setDone(_ done: Bool, _ arguments: ToolArguments) async throws -> JSONValue {
        let dryRun = try arguments.bool("dry_run")
        let ids = try await named(arguments, status: done ? .pending : .done, dryRun: dryRun)
        try await logic.checkPrefixesForChange(ids)
        let withSubtasks = try arguments.bool("with_subtasks")
        var before = TodoID.distinct(try await logic.todos(idPrefixes: ids).map(\.item), by: \.id)
        if done, withSubtasks {
            let named = Set(before.map(\.id))
            before += try await logic.subtasks(of: before.map(\.id)).filter { !$0.isDone && !named.contains($0.id) }
        }
        let (changed, next, already) = try await logic.setDoneBringingNext(done, idPrefixes: ids, withSubtasks: withSubtasks, dryRun: dryRun)
        let verb = done ? (dryRun ? "Would complete " : "Completed ") : (dryRun ? "Would reopen " : "Reopened ")
        let was = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A repeat kept from a server brings no next occurrence here: said of each.
        let kept = done ? changed.compactMap { item in item.recurrence?.completingKept.map { Self.naming([item]) + ": " + $0 } } : []
        let summary = ([
            changed.isEmpty ? nil : verb + Self.naming(changed),
            already.isEmpty ? nil : (done ? "already done: " : "already not done: ") + Self.naming(already),
        ].compactMap(\.self) + kept).joined(separator: "; ")
        return try await change(
            dryRun: dryRun, summary: summary, changed.map { (was[$0.id], $0) } + next.map { (nil, $0) },
            detail: try arguments.bool("detail")
        )
    }

    private func deleteTodos(_ arguments: ToolArguments) async throws -> JSONValue {
        let dryRun = try arguments.bool("dry_run")
        let ids = try await named(arguments, status: .pending, dryRun: dryRun)
        let deleted = try await logic.deleteTodos(idPrefixes: ids, dryRun: dryRun)
        return try await change(
            dryRun: dryRun, summary: (dryRun ? "Would delete " : "Deleted ") + Self.naming(deleted), deleted.map { ($0, nil) },
            detail: try arguments.bool("detail")
        )
    }

    private func undo(_ arguments: ToolArguments) async throws -> JSONValue {
        let dryRun = try arguments.bool("dry_run")
        let undone = try await logic.undo(force: try arguments.bool("force"), dryRun: dryRun)
        let restored = Dictionary(undone.restored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try await change(
            dryRun: dryRun, summary: (dryRun ? "Would undo the " : "Undid the ") + undone.summary,
            undone.changes.map { ($0.after, restored[$0.id]) }, detail: try arguments.bool("detail")
        )
    }

    private func sync(_ arguments: ToolArguments) async throws -> JSONValue {
        guard let syncer else { throw SyncError.noServer }
        let summary = try await logic.sync(with: syncer, dryRun: try arguments.bool("dry_run"), force: try arguments.bool("force"))
        var answer: [String: JSONValue] = [
            "dry_run": .bool(summary.dryRun), "summary": .string(summary.line),
            "pulled": .integer(Int64(summary.pulled)), "pushed": .integer(Int64(summary.pushed)),
            "deleted_here": .integer(Int64(summary.deletedLocally)), "deleted_on_server": .integer(Int64(summary.deletedRemotely)),
            "conflicts": .array(summary.conflicts.map { .string(String(describing: $0)) }),
            "steps": .array(summary.steps.map { .string($0) }),
        ]
        if let held = summary.heldBack { answer["held_back"] = .string("the sync \(held)") }
        return .object(answer)
    }

    // MARK: Helpers

    /// The edit the planning fields ask for: a field given as null is
    /// cleared, one left out is kept; dates by the command line's grammar,
    /// read now in this machine's time zone.
    private func edit(_ arguments: ToolArguments, text: String?, tags: String, untags: String? = nil) throws -> TodoEdit {
        var edit = TodoEdit(
            text: text, addTags: try arguments.strings(tags), removeTags: try untags.map { try arguments.strings($0) } ?? [],
            addBlockers: try arguments.strings("blocked_by"), removeBlockers: untags == nil ? [] : try arguments.strings("unblock")
        )
        /// nil: not given; .some(nil): null, which clears the field.
        func field(_ name: String) throws -> String?? {
            guard arguments.has(name) else { return nil }
            // `none`, as the command line takes it, clears the field too.
            let value = try arguments.string(name)
            return .some(value?.lowercased() == "none" ? nil : value)
        }
        func date(_ name: String) throws -> TodoDue?? {
            try field(name).map { text in
                do {
                    return try text.map { try DueDateGrammar.parse($0, now: now(), in: timeZone) }
                } catch {
                    throw ToolError("'\(name)': \(error)")
                }
            }
        }
        // Every date (`FieldKind.date`) under its key.
        for field in TodoField.allCases where field.kind == .date { edit[date: field] = try date(field.key) }
        edit.priority = try field("priority").map { text in
            guard let text else { return nil }
            guard let priority = TodoPriority(parsing: text) else {
                throw ToolError("'priority' must be high, medium, low or null, got '\(text)'")
            }
            return priority
        }
        edit.recurrence = try field("repeat").map { text -> TodoRepeat? in
            guard let text else { return nil }
            do throws(TodoFieldError) { return try TodoRepeat(typed: text) } catch { throw TodoError.invalidField(error) }
        }
        edit.project = try field("project")
        edit.parent = try field("parent")
        return edit
    }

    /// The note as given: taken as written ("None" is a note), removed by null.
    private func note(_ arguments: ToolArguments) throws -> String?? {
        guard arguments.has("note") else { return nil }
        return .some(try arguments.string("note"))
    }
}
