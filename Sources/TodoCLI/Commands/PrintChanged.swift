import TodoCore
import TodoStorage

/// Prints todos a command has just changed, with their current short IDs.
func printChanged(_ items: [TodoItem], verb: String, db: AppDatabase, json: Bool) throws {
    let out = OutputBuffer()
    if json {
        TodoJSON.writeArray(to: out, absentParents: try db.absentParents(of: items)) { emit in items.forEach(emit) }
        return
    }
    // As changed (a dry run's are not stored), with the short IDs stored now.
    let listed = zip(items, try db.resolveListed(idPrefixes: items.map(\.idString))).map { item, stored in
        ListedTodo(item: item, idPrefixLength: stored.idPrefixLength)
    }
    let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
    listed.forEach { out.write(formatter.change(verb, $0)) }
}
