// MARK: - Subtasks and blockers

/// What an action that links todos checks first: the IDs it names, resolved,
/// and no cycle its own links would close.
extension TodoLogic {
    /// `edit` with the todos it links to (`--parent`, `--blocked-by`) named
    /// by whole IDs, each prefix resolved as a change's are. A blocker to
    /// remove is first looked for among `blockedBy` (the edited todos'), so
    /// one deleted since can still be taken away.
    nonisolated(nonsending) static func resolvingIDs(
        _ edit: TodoEdit, in storage: any TodoStorage, blockedBy: [TodoItem.ID] = []
    ) async throws -> TodoEdit {
        guard edit.parent != nil || !edit.addBlockers.isEmpty || !edit.removeBlockers.isEmpty else { return edit }
        let resolve: (String) async throws -> String = { prefix in try await resolveDistinct([prefix], in: storage)[0].idString }
        return try await edit.resolvingIDs(resolve) { prefix in
            let typed = try TodoID.normalizedPrefix(prefix)
            let held = Set(blockedBy.map(\.lowercasedString).filter { $0.hasPrefix(typed) })
            return held.count == 1 ? held.first! : try await resolve(prefix)
        }
    }

    /// Throws `.linkCycle` if the todos, stored as `changed`, would make a
    /// cycle through one of them of the links `edit` adds (parents, blockers).
    nonisolated(nonsending) static func refuseCycles(
        _ changed: [TodoItem], adding edit: TodoEdit, in storage: any TodoStorage
    ) async throws {
        let replaced = Set(changed.map(\.id))
        let nodes = try await storage.links().filter { !replaced.contains($0.id) } + changed.map(TodoLinks.Node.init)
        let setsParent = edit.parent.map { $0 != nil } ?? false
        let relations: [TodoLinks.Relation] = (setsParent ? [.parent] : []) + (edit.addBlockers.isEmpty ? [] : [.blockedBy])
        for relation in relations {
            guard let cycle = TodoLinks.cycle(in: nodes, relation, through: changed.map(\.id)) else { continue }
            let todos = try await storage.resolve(idPrefixes: cycle.map(\.lowercasedString))
            throw TodoError.linkCycle(relation, todos.map { IDMatch(shortID: $0.shortID, text: $0.item.text) })
        }
    }
}
