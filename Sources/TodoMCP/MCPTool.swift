import TodoSync

/// A tool as `tools/list` describes it (MCP 2025-11-25, "Tools").
public struct MCPTool: Sendable {
    /// What a client may assume of a tool's effects.
    struct Annotations: Sendable {
        var readOnly: Bool
        var destructive: Bool
        var idempotent: Bool
        /// Whether it reaches beyond this machine (only sync does).
        var openWorld: Bool
    }

    var name: String
    var title: String
    var description: String
    var inputSchema: JSONValue
    var annotations: Annotations
    var outputSchema: JSONValue

    var json: JSONValue {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "outputSchema": outputSchema,
            "annotations": [
                "title": .string(title), "readOnlyHint": .bool(annotations.readOnly),
                "destructiveHint": .bool(annotations.destructive), "idempotentHint": .bool(annotations.idempotent),
                "openWorldHint": .bool(annotations.openWorld),
            ],
        ]
    }
}
