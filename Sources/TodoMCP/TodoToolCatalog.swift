import TodoCore
import TodoSync

/// The tools `todo mcp` offers: what each does, in words a model can act on,
/// the JSON Schema of its arguments and of its answer, and its hints.
public enum TodoToolCatalog {
    public static func tools(offeringSync: Bool) -> [MCPTool] {
        var tools = [listTodos, nextTodos, getTodo, addTodo, editTodo, completeTodo, reopenTodo, deleteTodo, undo]
        if offeringSync { tools.append(sync) }
        return tools
    }

    /// The arguments each tool takes, for refusing any other.
    static func argumentNames(of tool: MCPTool) -> [String] {
        guard case let .object(schema) = tool.inputSchema, case let .object(properties)? = schema["properties"] else { return [] }
        return properties.keys.sorted()
    }

    // MARK: Reading

    static let listTodos = MCPTool(
        name: "list_todos",
        title: "List todos",
        description: """
            Lists todos, newest first unless sorted otherwise, with every filter `todo list` has. \
            Filters combine. Answers at most `limit` todos (default 50); when more match, \
            `next_cursor` is set: pass it as `cursor`, with the same filters, for the next page \
            (it starts after the last todo listed, even if todos above it changed meanwhile). \
            Todos are named by their full UUID. Todos still waiting, or unfinished past their until \
            date, are left out, as `todo list` leaves them out.
            """,
        inputSchema: object([
            "query": ["type": "string", "description": "Only todos whose text contains this, ignoring case and accents."],
            "status": ["type": "string", "enum": ["pending", "done", "all"], "description": "Which todos: pending (the default), done, or all."],
            "due": ["type": "string", "description": "Only todos due: overdue, today, tomorrow, week (today through Sunday), 7d (today and the next 7 days), or on a date such as fri, +3d or 2026-12-01."],
            "tags": ["type": "array", "items": ["type": "string"], "description": "Only todos having every one of these tags."],
            "priority": ["type": "string", "enum": ["high", "medium", "low"], "description": "Only todos of this priority."],
            "project": ["type": "string", "description": "Only todos of this project and its sub-projects (home holds home.garden), or none: without a project."],
            "sort": ["type": "string", "enum": ["created", "due", "priority"], "description": "created: newest first (the default); due: soonest due first; priority: highest first."],
            "limit": ["type": "integer", "minimum": 1, "maximum": .integer(Int64(maximumLimit)), "description": "At most this many todos (default 50)."],
            "cursor": ["type": "string", "description": "The next_cursor of the previous page."],
        ]),
        annotations: .init(readOnly: true, destructive: false, idempotent: true, openWorld: false),
        outputSchema: object(["todos": ["type": "array", "items": todoSchema], "next_cursor": ["type": ["string", "null"]]], required: ["todos", "next_cursor"])
    )

    static let nextTodos = MCPTool(
        name: "next_todos",
        title: "What to do next",
        description: """
            Answers what `todo next` answers: the pending todos to do now, most urgent first, \
            each with its `urgency` (Taskwarrior's terms: \(UrgencyWeights.names.map(\.name).joined(separator: ", ")); \
            weighted as the person's todo config says). Blocked todos, and those still waiting, are left out.
            """,
        inputSchema: object([
            "tags": ["type": "array", "items": ["type": "string"], "description": "Only todos having every one of these tags."],
            "not_tags": ["type": "array", "items": ["type": "string"], "description": "Only todos having none of these tags."],
            "project": ["type": "string", "description": "Only todos of this project and its sub-projects, or none: without a project."],
            "limit": ["type": "integer", "minimum": 1, "maximum": .integer(Int64(maximumLimit)), "description": "At most this many todos (default 20)."],
        ]),
        annotations: .init(readOnly: true, destructive: false, idempotent: true, openWorld: false),
        outputSchema: object([
            "todos": ["type": "array", "items": rankedTodoSchema],
        ], required: ["todos"])
    )

    static let getTodo = MCPTool(
        name: "get_todo",
        title: "Get a todo",
        description: "Answers one todo with every field, named by its UUID or a unique prefix of it.",
        inputSchema: object(["id": idSchema], required: ["id"]),
        annotations: .init(readOnly: true, destructive: false, idempotent: true, openWorld: false),
        outputSchema: object(["todo": todoSchema], required: ["todo"])
    )

    // MARK: Changing

    static let addTodo = MCPTool(
        name: "add_todo",
        title: "Add a todo",
        description: "Adds a todo. `todo undo` (or the undo tool) takes it back.",
        inputSchema: object([
            "text": ["type": "string", "description": "What to do, on one line."],
            "due": dueSchema, "priority": prioritySchema,
            "tags": ["type": "array", "items": ["type": "string"], "description": "Tags, without #."],
            "note": ["type": "string", "description": "A longer note; may span lines."],
            "repeat": repeatSchema, "project": projectSchema,
            "parent": parentSchema, "blocked_by": blockersSchema("Todos that must be done first."),
            "dry_run": dryRunSchema,
        ].merging(datesSchemas) { first, _ in first }, required: ["text"]),
        annotations: .init(readOnly: false, destructive: false, idempotent: false, openWorld: false),
        outputSchema: changeSchema
    )

    static let editTodo = MCPTool(
        name: "edit_todo",
        title: "Edit a todo",
        description: """
            Changes a todo's fields, or (`where`) those of every todo list_todos' filters select; \
            fields not given stay as they are, and null clears one. \(whereRule) \
            `todo undo` takes the edit back.
            """,
        inputSchema: object([
            "id": idSchema, "where": whereSchema, "detail": detailSchema,
            "text": ["type": "string", "description": "The new text."],
            "due": dueSchema, "priority": prioritySchema,
            "add_tags": ["type": "array", "items": ["type": "string"], "description": "Tags to add."],
            "remove_tags": ["type": "array", "items": ["type": "string"], "description": "Tags to remove; each must be on the todo."],
            "note": ["type": ["string", "null"], "description": "The new note; null removes it."],
            "repeat": repeatSchema, "project": projectSchema,
            "parent": parentSchema, "blocked_by": blockersSchema("Todos to add to those that must be done first."),
            "unblock": blockersSchema("Todos that no longer block it."),
            "dry_run": dryRunSchema,
        ].merging(datesSchemas) { first, _ in first }),
        annotations: .init(readOnly: false, destructive: true, idempotent: true, openWorld: false),
        outputSchema: changeSchema
    )

    static let completeTodo = MCPTool(
        name: "complete_todo", title: "Complete todos",
        description: """
            Marks todos done, all or none: those `ids` names, or those `where` selects (pending \
            ones). A todo with open subtasks is refused unless `with_subtasks` completes them too; \
            one already done is left as it is. Completing a repeating todo adds its next \
            occurrence, with fresh copies of its subtasks (in the answer with no `before`). \
            \(whereRule) `todo undo` takes it back.
            """,
        inputSchema: object([
            "ids": idsSchema, "where": whereSchema,
            "with_subtasks": ["type": "boolean", "description": "Complete the todos' open subtasks too."],
            "dry_run": dryRunSchema, "detail": detailSchema,
        ]),
        annotations: .init(readOnly: false, destructive: true, idempotent: true, openWorld: false),
        outputSchema: changeSchema
    )

    static let reopenTodo = changingIDs(
        "reopen_todo", "Reopen todos",
        "Marks done todos pending again, all or none: those `ids` names, or those `where` selects (done ones). \(whereRule) `todo undo` takes it back."
    )

    static let deleteTodo = changingIDs(
        "delete_todo", "Delete todos",
        "Deletes todos, all or none: those `ids` names, or those `where` selects (pending ones). \(whereRule) `todo undo` brings them back with every field."
    )

    /// What a change by `where` asks first.
    static let whereRule = """
        Over \(TodoToolCalls.confirmAbove) todos by `where` are changed only right after a dry run of the same call: \
        call with dry_run: true, show the person what would change, then call again without it. \
        Over \(TodoToolCalls.summarizedAbove) changes, the answer is a summary unless `detail`.
        """

    /// A tool that changes the todos its `ids` name, or its `where` selects, all or none.
    private static func changingIDs(_ name: String, _ title: String, _ description: String) -> MCPTool {
        MCPTool(
            name: name, title: title, description: description,
            inputSchema: object(["ids": idsSchema, "where": whereSchema, "dry_run": dryRunSchema, "detail": detailSchema]),
            annotations: .init(readOnly: false, destructive: true, idempotent: true, openWorld: false),
            outputSchema: changeSchema
        )
    }

    static let undo = MCPTool(
        name: "undo",
        title: "Undo the last change",
        description: """
            Takes back the latest change made on this machine, by this assistant, the todo command \
            or todo ui: what `todo undo` does. Call it again to go further back. Refuses when a \
            todo it touched was changed since by a sync, unless `force`.
            """,
        inputSchema: object([
            "force": ["type": "boolean", "description": "Put back the earlier values even of a todo changed since by a sync."],
            "dry_run": dryRunSchema, "detail": detailSchema,
        ]),
        annotations: .init(readOnly: false, destructive: true, idempotent: false, openWorld: false),
        outputSchema: changeSchema
    )

    static let sync = MCPTool(
        name: "sync",
        title: "Sync with the server",
        description: """
            Syncs the todos with the server the last `todo sync` used: sends the changes made here, \
            brings those made elsewhere. A dry run answers what it would do. Where the sync would \
            delete more than half of the synced todos here, it holds those deletions back, syncs \
            the rest and answers held_back: ask the person, then sync again with force to make them.
            """,
        inputSchema: object([
            "dry_run": dryRunSchema,
            "force": ["type": "boolean", "description": "Make the deletions a sync held back (as todo sync --force)."],
        ]),
        annotations: .init(readOnly: false, destructive: true, idempotent: true, openWorld: true),
        outputSchema: object([
            "dry_run": ["type": "boolean"], "summary": ["type": "string"],
            "pulled": ["type": "integer"], "pushed": ["type": "integer"],
            "deleted_here": ["type": "integer"], "deleted_on_server": ["type": "integer"],
            "conflicts": ["type": "array", "items": ["type": "string"]],
            "steps": ["type": "array", "items": ["type": "string"]],
            "held_back": ["type": "string", "description": "The deletions the sync held back, if any."],
        ], required: ["dry_run", "summary"])
    )

    /// The most todos one page of list_todos answers.
    static let maximumLimit = 500
}
