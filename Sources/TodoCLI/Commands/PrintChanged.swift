import TodoCore
import TodoStorage

/// Prints todos a command has just changed, with their current short IDs.
func printChanged(_ items: [TodoItem], verb: String, db: AppDatabase, json: Bool) throws {
    let out = OutputBuffer()
    if json {
        TodoJSON.writeArray(to: out) { emit in items.forEach(emit) }
        return
    }
    let listed = try db.resolveListed(idPrefixes: items.map(\.idString))
    let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
    listed.forEach { out.write(formatter.change(verb, $0)) }
}
