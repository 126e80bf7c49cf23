import TodoCore
import TodoSync

// MARK: - The schemas of the tools' arguments and answers

extension TodoToolCatalog {
    /// A todo as `TodoItem.json` writes it: its own members, then each
    /// field's (`TodoField`), typed by its kind.
    static let todoSchema: JSONValue = {
        var properties: [String: JSONValue] = [
            "id": ["type": "string", "description": "The todo's UUID."],
            "createdAt": ["type": "string", "description": "ISO 8601, UTC."],
            "updatedAt": ["type": "string", "description": "ISO 8601, UTC."],
            "completedAt": ["type": ["string", "null"]],
        ]
        for field in TodoField.allCases {
            var schema: [String: JSONValue] = switch field.kind {
            case .text: ["type": "string"]
            case .flag: ["type": "boolean"]
            case .tags, .todos: ["type": "array", "items": ["type": "string"]]
            case .priority: ["type": ["string", "null"], "enum": ["high", "medium", "low", nil]]
            default: ["type": ["string", "null"]]
            }
            if let summary = field.summary { schema["description"] = .string(summary) }
            properties[field.key] = .object(schema)
        }
        return object(properties, required: ["id", "createdAt", "updatedAt", "completedAt"] + TodoField.allCases.map(\.key))
    }()

    static let changeSchema: JSONValue = object([
        "dry_run": ["type": "boolean", "description": "True: nothing was changed; the todos are as the change would leave them."],
        "count": ["type": "integer", "description": "How many todos the change touched."],
        "first_ids": ["type": "array", "items": ["type": "string"], "description": "A summary's first few IDs (its changes are not listed)."],
        "omitted": ["type": "integer", "description": "How many more todos the change touched than are listed (at most 200 are)."],
        "summary": ["type": "string"],
        "changes": [
            "type": "array",
            "items": object([
                "id": ["type": "string"],
                "before": ["anyOf": [todoSchema, ["type": "null"]], "description": "Null: the change adds it."],
                "after": ["anyOf": [todoSchema, ["type": "null"]], "description": "Null: the change deletes it."],
            ], required: ["id", "before", "after"]),
        ],
    ], required: ["dry_run", "summary", "changes"])

    /// A todo as next_todos answers it: with its urgency.
    static let rankedTodoSchema: JSONValue = {
        guard case var .object(schema) = todoSchema, case var .object(properties)? = schema["properties"],
              case var .array(required)? = schema["required"] else { return todoSchema }
        properties["urgency"] = ["type": "number", "description": "How urgent it is now, as todo next ranks."]
        required.append("urgency")
        schema["properties"] = .object(properties)
        schema["required"] = .array(required)
        return .object(schema)
    }()
    static let whereSchema: JSONValue = [
        "type": "object", "additionalProperties": false,
        "description": "Instead of IDs: the todos list_todos' filters select (query, status, due, tags, priority, project).",
        "properties": [
            "query": ["type": "string"], "status": ["type": "string", "enum": ["pending", "done", "all"]],
            "due": ["type": "string"], "tags": ["type": "array", "items": ["type": "string"]],
            "priority": ["type": "string", "enum": ["high", "medium", "low"]], "project": ["type": "string"],
        ],
    ]
    static let detailSchema: JSONValue = [
        "type": "boolean", "description": "List every change, before and after, however many (else over 20 are a summary).",
    ]
    static let idSchema: JSONValue = ["type": "string", "description": "The todo's UUID, or a unique prefix of at least 4 characters."]
    static let idsSchema: JSONValue = [
        "type": "array", "items": ["type": "string"], "minItems": 1,
        "description": "UUIDs of the todos, or unique prefixes of at least 4 characters.",
    ]
    static let dueSchema: JSONValue = [
        "type": ["string", "null"],
        "description": """
            When it is due: today, tomorrow, a weekday (the next one), in 3 days, next week, \
            dec 24, +2w, eom, 2026-12-01, or any of them with a local time (tomorrow 5pm, \
            2026-12-01 14:30). Null removes it.
            """,
    ]
    static let parentSchema: JSONValue = [
        "type": ["string", "null"], "description": "The todo to make it a subtask of: its UUID or a unique prefix. Null: none.",
    ]

    static func blockersSchema(_ meaning: String) -> JSONValue {
        ["type": "array", "items": ["type": "string"], "description": .string(meaning + " UUIDs or unique prefixes.")]
    }

    static let projectSchema: JSONValue = [
        "type": ["string", "null"], "description": "The project: names joined by dots, the widest first (home.garden). Null removes it.",
    ]

    /// A date field other than the due date: read as `due` is.
    /// The dates a todo takes besides `due` (`FieldKind.date`), each under
    /// its key, said as the field table says it.
    static let datesSchemas: [String: JSONValue] = Dictionary(uniqueKeysWithValues: TodoField.allCases
        .filter { $0.kind == .date && $0 != .due }
        .map { ($0.key, dateSchema($0.summary ?? "")) })

    static func dateSchema(_ meaning: String) -> JSONValue {
        ["type": ["string", "null"], "description": .string(meaning + " A date as `due` takes. Null removes it.")]
    }

    static let prioritySchema: JSONValue = ["type": ["string", "null"], "enum": ["high", "medium", "low", nil], "description": "Null removes it."]
    static let repeatSchema: JSONValue = [
        "type": ["string", "null"],
        "description": "daily, weekly, monthly, yearly, or 3d, 2w, 6m, 1y (every N days, weeks, months or years); needs a due date. Null stops it.",
    ]
    static let dryRunSchema: JSONValue = ["type": "boolean", "description": "Answer the todos before and after, and change nothing."]

    static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }
}
