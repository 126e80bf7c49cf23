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

    func line(_ todo: ListedTodo) -> String {
        let shortID = todo.shortID
        let padding = String(repeating: " ", count: max(0, idWidth - shortID.count))
        let box = todo.item.isDone ? "[x]" : "[ ]"
        guard usesColor else {
            return "\(box) \(shortID)\(padding)  \(todo.item.text)\n"
        }
        let coloredBox = todo.item.isDone ? Self.green + box + Self.reset : box
        let text = todo.item.isDone ? Self.dim + todo.item.text + Self.reset : todo.item.text
        return "\(coloredBox) \(Self.yellow)\(shortID)\(Self.reset)\(padding)  \(text)\n"
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
