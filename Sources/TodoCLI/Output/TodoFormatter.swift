import TodoCore
import TodoStorage

/// Formats todos for people: one aligned line per todo.
///
///     [ ] 3f2a  buy milk
///     [x] 91bc  call the bank
struct TodoFormatter {
    var usesColor: Bool
    /// Width of the ID column: the widest short ID among the todos shown.
    var idWidth: Int

    private static let yellow = "\u{1B}[33m"
    private static let green = "\u{1B}[32m"
    private static let dim = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    /// Writes one todo line for a row straight from SQLite, without building strings.
    func write(_ row: RawTodoRow, to out: OutputBuffer) {
        let shown = min(row.idPrefixLength, row.id.count)
        if usesColor && row.isDone {
            out.write(Self.green + "[x]" + Self.reset + " ")
        } else {
            out.write(row.isDone ? "[x] " : "[ ] ")
        }
        if usesColor { out.write(Self.yellow) }
        out.write(UnsafeBufferPointer(rebasing: row.id[0..<shown]))
        if usesColor { out.write(Self.reset) }
        out.write(UInt8(ascii: " "), count: max(0, idWidth - shown) + 2)
        if usesColor && row.isDone { out.write(Self.dim) }
        out.write(row.text)
        if usesColor && row.isDone { out.write(Self.reset) }
        out.write(UInt8(ascii: "\n"))
    }

    /// A status line after a change, e.g. `Done  3f2a  buy milk`.
    func change(_ verb: String, _ todo: ListedTodo) -> String {
        let id = usesColor ? Self.yellow + todo.shortID + Self.reset : todo.shortID
        return "\(verb) \(id)  \(todo.item.text)\n"
    }

    /// Every detail of one todo.
    func details(_ todo: ListedTodo) -> String {
        let item = todo.item
        var out = ""
        out += "ID         \(item.idString) (short: \(todo.shortID))\n"
        out += "Text       \(item.text)\n"
        out += "Status     \(item.isDone ? "done" : "pending")\n"
        out += "Created    \(ISO8601.string(from: item.createdAt))\n"
        out += "Updated    \(ISO8601.string(from: item.updatedAt))\n"
        if let completedAt = item.completedAt {
            out += "Completed  \(ISO8601.string(from: completedAt))\n"
        }
        return out
    }
}
