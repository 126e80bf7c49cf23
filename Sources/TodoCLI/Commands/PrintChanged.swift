import TodoCore
import TodoStorage

/// Prints todos a command has just changed, with their current short IDs.
func printChanged(_ items: [TodoItem], verb: String, db: AppDatabase, json: Bool) throws {
    try printChanges(items.map { (nil, $0) }, verb: verb, fields: false, db: db, json: json)
}

/// Prints each todo a change made (or, a dry run, would make) as it is
/// after, and, with `fields` (a dry run's answer), under it each field it
/// changes, before → after, as the MCP tools answer: `Would edit 3f2a  buy
/// milk  !high`, then `    priority: none → high`. A pair without an after
/// is a todo deleted; `--json` prints the todos, as they are after (or,
/// deleted, before).
func printChanges(
    _ pairs: [(before: TodoItem?, after: TodoItem?)], verb: String, fields: Bool = true, db: AppDatabase, json: Bool
) throws {
    let out = OutputBuffer()
    let items = pairs.compactMap { $0.after ?? $0.before }
    if json {
        TodoJSON.writeArray(to: out, absentParents: try db.absentParents(of: items)) { emit in items.forEach(emit) }
        return
    }
    let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
    for pair in pairs {
        guard let item = pair.after ?? pair.before else { continue }
        // As changed (a dry run's are not stored), with the short ID stored now;
        // one not stored (an undo would bring it back) by its first 8 characters.
        let length = (try? db.resolveListed(idPrefixes: [item.idString]).first?.idPrefixLength) ?? 8
        out.write(formatter.change(verb, ListedTodo(item: item, idPrefixLength: length)))
        guard fields, let before = pair.before, let after = pair.after else { continue }
        for field in TodoField.allCases where !before.holdsSame(field, as: after) {
            out.write("    \(field.rawValue): \(shownValue(before[field])) → \(shownValue(after[field]))\n")
        }
    }
}

/// A field's value as a change shows it: `none` for an empty one.
func shownValue(_ value: String) -> String { value.isEmpty ? "none" : value }
