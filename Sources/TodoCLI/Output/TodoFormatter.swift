import TodoCore
import TodoStorage
import TodoTerminal

/// Formats todos for people: one aligned line per todo.
///
///     [ ] 3f2a  buy milk
///     [x] 91bc  call the bank
struct TodoFormatter {
    var usesColor: Bool
    /// Width of the ID column: the widest short ID among the todos shown.
    var idWidth: Int
    /// On a terminal, its width: longer text wraps under the text column.
    /// Nil when piped: one line per todo, however long.
    var columns: Int? = nil

    /// The narrowest text column worth wrapping into; narrower, lines run on.
    private static let narrowestTextColumn = 10

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
        writeText(row.text, to: out)
        if usesColor && row.isDone { out.write(Self.reset) }
        out.write(UInt8(ascii: "\n"))
    }

    /// The text, wrapped under its column when it is wider than the terminal.
    private func writeText(_ text: UnsafeBufferPointer<UInt8>, to out: OutputBuffer) {
        let indent = 4 + idWidth + 2
        // Text takes at most one column a byte: short text needs no measuring.
        guard let columns, columns - indent >= Self.narrowestTextColumn, text.count > columns - indent else {
            out.write(text)
            return
        }
        let lines = String(decoding: text, as: UTF8.self).wrapped(toWidth: columns - indent)
        for (index, line) in lines.enumerated() {
            if index > 0 {
                out.write("\n")
                out.write(UInt8(ascii: " "), count: indent)
            }
            out.write(line)
        }
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
