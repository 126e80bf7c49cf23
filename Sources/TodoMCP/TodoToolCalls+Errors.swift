import TodoCore

extension TodoToolCalls {
    /// The core's message for `error` in MCP's words: what to pass to which
    /// tool next, and the candidates of an ambiguous ID named by their full
    /// UUIDs, as every answer names todos.
    func describe(_ error: any Error) async -> String {
        if let error = error as? ToolError { return error.description }
        let failure = TodoError(error)
        let (prefix, matches, candidates): (String, Int, [IDMatch])
        switch failure {
        case let .ambiguousID(id, count, listed):
            (prefix, matches, candidates) = ("'\(id)' matches \(count) todos", count, listed)
        case let .prefixTooShort(id, count, listed):
            (prefix, matches, candidates) = (
                "'\(id)' is shorter than the \(TodoID.minimumPrefixLength) characters a change needs (it matches \(count) todo\(count == 1 ? "" : "s"))",
                count, listed
            )
        case let .undoConflict(change, text, id):
            let full = (try? await logic.todos(idPrefixes: [id]).first?.item.idString) ?? id
            return "cannot undo the \(change): “\(text)” (\(full)) was changed since, by a sync or another program; "
                + "get_todo shows it, and undo with force: true puts back its earlier values anyway"
        case .notFound, .invalidID:
            return failure.description + ": list_todos (with status: all) shows every todo's ID"
        case let .linkCycle(relation, _):
            return failure.description + " (edit_todo with \(relation == .parent ? "parent: null" : "unblock"))"
        case let .openSubtasks(_, open):
            return failure.description + ": pass with_subtasks: true to complete \(open == 1 ? "it" : "them") too, or complete \(open == 1 ? "it" : "them") first"
        case .invalidField(.repeatNeedsDue):
            return failure.description + ": give due as well"
        default:
            return failure.description
        }
        var named: [String] = []
        for candidate in candidates {
            let id = (try? await logic.todos(idPrefixes: [candidate.shortID]).first?.item.idString) ?? candidate.shortID
            named.append("\(id) “\(candidate.text)”")
        }
        let more = matches > candidates.count ? "; and \(matches - candidates.count) more" : ""
        return prefix + ": give the full ID of one of them: " + named.joined(separator: "; ") + more
    }
}
