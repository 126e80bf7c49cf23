import Foundation
import TodoCore
import TodoTerminal

/// Formats todos for people: one aligned line per todo, its due date,
/// priority and tags after the text.
///
///     [ ] 3f2a  pay rent  due 12-01 !high #bills #home
///     [*] 7c0d  write the report
///     [x] 91bc  call the bank
struct TodoFormatter {
    var usesColor: Bool
    /// Width of the ID column: the widest short ID among the todos shown.
    var idWidth: Int
    /// On a terminal, its width: longer text wraps under the text column.
    /// Nil when piped: one line per todo, however long.
    var columns: Int?
    /// Where due dates are shown and overdue reckoned.
    let timeZone: TimeZone
    /// Today in `timeZone` and now, in the stored forms of a due date: a due
    /// date sorting before them is overdue.
    let today: [UInt8]
    let now: [UInt8]
    let todayDay: CalendarDay

    init(usesColor: Bool, idWidth: Int, columns: Int? = nil, now: Date = Date(), timeZone: TimeZone = .current) {
        self.usesColor = usesColor
        self.idWidth = idWidth
        self.columns = columns
        self.timeZone = timeZone
        todayDay = CalendarDay(now, in: timeZone)
        today = Array(todayDay.description.utf8)
        self.now = Array(ISO8601.string(from: now).utf8)
    }

    /// The narrowest text column worth wrapping into; narrower, lines run on.
    static let narrowestTextColumn = 10

    static let yellow = "\u{1B}[33m"
    static let green = "\u{1B}[32m"
    static let red = "\u{1B}[31m"
    static let dim = "\u{1B}[2m"
    static let reset = "\u{1B}[0m"

    /// Writes one todo line for a row straight from SQLite, without building
    /// strings for the many todos that have no planning fields. A subtask's
    /// text is indented two spaces a level (`depth`); `blockedBy` (the short
    /// IDs of the open todos that block it) follows its fields.
    func write(_ row: RawTodoRow, to out: OutputBuffer, depth: Int = 0, blockedBy: String = "") {
        let shown = min(row.idPrefixLength, row.id.count)
        if usesColor && row.isDone {
            out.write(Self.green + "[x]" + Self.reset + " ")
        } else {
            // Started (`todo start`): `[*]`, as Taskwarrior marks active tasks.
            out.write(row.isDone ? "[x] " : row.isStarted ? "[*] " : "[ ] ")
        }
        if usesColor { out.write(Self.yellow) }
        out.write(UnsafeBufferPointer(rebasing: row.id[0..<shown]))
        if usesColor { out.write(Self.reset) }
        out.write(UInt8(ascii: " "), count: max(0, idWidth - shown) + 2 + 2 * min(depth, 10))
        if usesColor && row.isDone { out.write(Self.dim) }
        let lastLineWidth = writeText(row.text, to: out)
        if usesColor && row.isDone { out.write(Self.reset) }
        if row.due.count > 0 || row.priority != 0 || row.tags.count > 0 || row.project.count > 0 {
            writeFields(row, after: lastLineWidth, to: out)
        }
        if !blockedBy.isEmpty {
            out.write("  " + (usesColor ? Self.red + "blocked by " + blockedBy + Self.reset : "blocked by " + blockedBy))
        }
        // Only `list --all` and `--waiting` list these: other lists leave them out.
        if row.wait.count > 0, (row.wait.count == 10 ? today : now).lexicographicallyPrecedes(row.wait) {
            out.write("  (waiting)")
        }
        if !row.isDone, row.until.count > 0, row.until.lexicographicallyPrecedes(row.until.count == 10 ? today : now) {
            out.write("  (past until)")
        }
        out.write(UInt8(ascii: "\n"))
    }

    /// The text, wrapped under its column when it is wider than the terminal;
    /// returns the width of its last line (or, unwrapped, an upper bound).
    private func writeText(_ text: UnsafeBufferPointer<UInt8>, to out: OutputBuffer) -> Int {
        let indent = 4 + idWidth + 2
        // Text takes at most one column a byte: short text needs no measuring.
        guard let columns, columns - indent >= Self.narrowestTextColumn, text.count > columns - indent else {
            out.write(text)
            return text.count
        }
        let lines = String(decoding: text, as: UTF8.self).wrapped(toWidth: columns - indent)
        for (index, line) in lines.enumerated() {
            if index > 0 {
                out.write("\n")
                out.write(UInt8(ascii: " "), count: indent)
            }
            out.write(line)
        }
        return lines.last?.displayWidth ?? 0
    }

    /// A due date in few characters (`TodoDue.shortText`).
    func compact(_ due: TodoDue) -> String {
        due.shortText(today: todayDay, in: timeZone)
    }

    /// A status line after a change, e.g. `Done  3f2a  buy milk`.
    func change(_ verb: String, _ todo: ListedTodo) -> String {
        let id = usesColor ? Self.yellow + todo.shortID + Self.reset : todo.shortID
        let fields = summary(todo.item)
        return "\(verb) \(id)  \(todo.item.text)\(fields.isEmpty ? "" : "  " + fields)\n"
    }

    /// `due 12-01 !high +home.garden #home`, without colour; "" when the todo has none of them.
    func summary(_ item: TodoItem) -> String {
        var parts: [String] = []
        if let due = item.due { parts.append("due " + compact(due)) }
        if let priority = item.priority { parts.append("!" + priority.rawValue) }
        if let project = item.project { parts.append("+" + project) }
        parts += item.tags.map { $0.hasPrefix("#") ? $0 : "#" + $0 }
        return parts.joined(separator: " ")
    }

    /// Every detail of one todo, every field named, the note on lines of its own.
    func details(_ todo: ListedTodo, relatives: TodoRelatives = TodoRelatives()) -> String {
        let item = todo.item
        var out = ""
        out += "ID         \(item.idString) (short: \(todo.shortID))\n"
        out += "Text       \(item.text)\n"
        out += "Status     \(item.isDone ? "done" : item.start.map { "started " + longForm($0, isDone: true) } ?? "pending")\n"
        out += "Due        \(item.due.map { longForm($0, isDone: item.isDone) } ?? "none")\n"
        out += "Priority   \(item.priority?.rawValue ?? "none")\n"
        out += "Tags       \(item.tags.isEmpty ? "none" : item.tags.joined(separator: " "))\n"
        out += "Repeat     \(item.recurrence?.words ?? "none")\n"
        out += "Project    \(item.project ?? "none")\n"
        for field in TodoField.detailDates {
            out += field.label.padding(toLength: 11, withPad: " ", startingAt: 0)
                + (item.date(field).map { longForm($0, isDone: true) } ?? "none") + "\n"
        }
        out += "Parent     \(relatives.parent.map(Self.mention) ?? "none")\n"
        let blockers = relatives.blockers.map { Self.mention($0) + ($0.isDone ? " (done)" : "") }
            + relatives.goneBlockers.map { "\($0.lowercasedString.prefix(8)) (deleted)" }
        out += "Blocked by \(blockers.isEmpty ? "none" : blockers.joined(separator: ", "))\n"
        out += "Subtasks   \(relatives.subtasks.isEmpty ? "none" : relatives.subtasks.map(Self.mention).joined(separator: ", "))\n"
        out += "Created    \(ISO8601.string(from: item.createdAt))\n"
        out += "Updated    \(ISO8601.string(from: item.updatedAt))\n"
        if let completedAt = item.completedAt {
            out += "Completed  \(ISO8601.string(from: completedAt))\n"
        }
        if let note = item.note {
            out += "Note\n"
            for line in note.split(separator: "\n", omittingEmptySubsequences: false) {
                out += "  \(line)\n"
            }
        } else {
            out += "Note       none\n"
        }
        return out
    }

    /// Another todo named in a todo's details: `91bc2a07 “buy paint”`.
    private static func mention(_ item: TodoItem) -> String {
        "\(item.idString.prefix(8)) “\(item.text)”"
    }

    /// `2026-12-01 (Tue)`, or `2026-12-01 14:30 Europe/Berlin (Tue), 2026-12-01T13:30:00.000Z` for a time,
    /// with `overdue` after a date already past (of a todo not done).
    private func longForm(_ due: TodoDue, isDone: Bool) -> String {
        let day = due.day(in: timeZone)
        let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday - 1]
        var text = day.description
        if let time = due.timeOfDay(in: timeZone) {
            text += " \(time) \(timeZone.identifier) (\(weekday)), \(due.text)"
        } else {
            text += " (\(weekday))"
        }
        let stored = Array(due.text.utf8)
        if !isDone && stored.lexicographicallyPrecedes(stored.count == 10 ? today : now) { text += ", overdue" }
        return text
    }
}
