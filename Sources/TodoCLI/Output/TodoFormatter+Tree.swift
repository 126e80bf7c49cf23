import Foundation
import TodoCore

extension TodoFormatter {
    /// One todo's line as `write(_: RawTodoRow, to:)` prints it, its text
    /// indented two spaces a level under its parent, and the short IDs of
    /// the open todos that block it after its fields.
    ///
    ///     [ ] 3f2a  paint the room  blocked by 91bc
    ///     [ ] 77e0    buy paint  due 12-01
    func write(_ todo: ListedTodo, depth: Int, blockedBy: [String], to out: OutputBuffer) {
        let item = todo.item
        let shortID = todo.shortID
        if usesColor && item.isDone {
            out.write(Self.green + "[x]" + Self.reset + " ")
        } else {
            out.write(item.isDone ? "[x] " : "[ ] ")
        }
        out.write(usesColor ? Self.yellow + shortID + Self.reset : shortID)
        out.write(String(repeating: " ", count: max(0, idWidth - shortID.count) + 2 + 2 * depth))
        out.write(usesColor && item.isDone ? Self.dim + item.text + Self.reset : item.text)
        let fields = summary(item)
        if !fields.isEmpty { out.write("  " + (usesColor ? Self.dim + fields + Self.reset : fields)) }
        if !blockedBy.isEmpty {
            let blocked = "blocked by " + blockedBy.joined(separator: " ")
            out.write("  " + (usesColor ? Self.red + blocked + Self.reset : blocked))
        }
        out.write("\n")
    }
}
