import TodoCore

/// Prints todos a command has just changed, with their current short IDs.
func printChanged(_ items: [TodoItem], verb: String, db: any TodoDatabase, json: Bool) throws {
    try printChanges(items.map { (nil, $0) }, verb: verb, fields: false, db: db, json: json)
}

/// Prints each todo a change made (or, a dry run, would make) as it is
/// after, and, with `fields` (a dry run's answer), under it each field it
/// changes, before → after, as the MCP tools answer: `Would edit 3f2a  buy
/// milk  !high`, then `    priority: none → high`. A pair without an after
/// is a todo deleted; `--json` prints the todos, as they are after (or,
/// deleted, before).
func printChanges(
    _ pairs: [(before: TodoItem?, after: TodoItem?)], verb: String, fields: Bool = true, db: any TodoDatabase, json: Bool
) throws {
    try printChanges(pairs, verb: { _, _ in verb }, fields: fields, db: db, json: json)
}

/// `printChanges` with a verb for each todo (`Would delete`, `Would bring back`).
func printChanges(
    _ pairs: [(before: TodoItem?, after: TodoItem?)], verb: (TodoItem?, TodoItem?) -> String, fields: Bool = true,
    db: any TodoDatabase, json: Bool
) throws {
    let out = OutputBuffer()
    let items = pairs.compactMap { $0.after ?? $0.before }
    if json {
        TodoJSON.writeArray(to: out, absentParents: try db.absentParents(of: items)) { emit in items.forEach(emit) }
        return
    }
    // As changed (a dry run's are not stored), with the short IDs stored now,
    // read at once; if one is not stored (an undo would bring it back), each
    // alone, one not stored by its first 8 characters.
    let ids = items.map(\.idString)
    let lengths = (try? db.resolveListed(idPrefixes: ids).map(\.idPrefixLength))
        ?? ids.map { (try? db.resolveListed(idPrefixes: [$0]).first?.idPrefixLength) ?? 8 }
    let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
    for (pair, length) in zip(pairs.filter { $0.after ?? $0.before != nil }, lengths) {
        guard let item = pair.after ?? pair.before else { continue }
        out.write(formatter.change(verb(pair.before, pair.after), ListedTodo(item: item, idPrefixLength: length)))
        guard fields, let before = pair.before, let after = pair.after else { continue }
        for field in TodoField.allCases where !before.holdsSame(field, as: after) {
            out.write("    \(field.rawValue): \(shownValue(before[field])) → \(shownValue(after[field]))\n")
        }
    }
}

/// A field's value as a change shows it: `none` for an empty one.
func shownValue(_ value: String) -> String { value.isEmpty ? "none" : value }
