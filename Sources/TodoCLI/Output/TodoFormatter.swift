import Foundation
import TodoCore
import TodoStorage
import TodoTerminal

/// Formats todos for people: one aligned line per todo, its due date,
/// priority and tags after the text.
///
///     [ ] 3f2a  pay rent  due 12-01 !high #bills #home
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
    private let today: [UInt8]
    private let now: [UInt8]
    private let todayDay: CalendarDay

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
    private static let narrowestTextColumn = 10

    private static let yellow = "\u{1B}[33m"
    private static let green = "\u{1B}[32m"
    private static let red = "\u{1B}[31m"
    private static let dim = "\u{1B}[2m"
    private static let reset = "\u{1B}[0m"

    /// Writes one todo line for a row straight from SQLite, without building
    /// strings for the many todos that have no planning fields.
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
        let lastLineWidth = writeText(row.text, to: out)
        if usesColor && row.isDone { out.write(Self.reset) }
        if row.due.count > 0 || row.priority != 0 || row.tags.count > 0 {
            writeFields(row, after: lastLineWidth, to: out)
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

    /// The fields after the text (`due 12-01 !high #bills #home`), on the
    /// text's last line when they fit, else under it; written from the row's
    /// bytes, without a `TodoDue` or a `String` for a date, a priority or an
    /// ASCII tag: half the todos of a list have a field, and a million of them
    /// must print at the pace of the rest (`todo list` in Benchmarks/run.sh).
    private func writeFields(_ row: RawTodoRow, after lastLineWidth: Int, to out: OutputBuffer) {
        // A day is its own text; a moment is shown on this zone's clock.
        let moment = row.due.count > 10 ? localTime(row.due) : nil
        let hasDue = row.due.count == 10 || moment != nil
        let dueDay: UnsafeBufferPointer<UInt8>? = row.due.count == 10 ? row.due : nil
        let dueDayText = moment.map { $0.day.description }
        let sameYear = if let dueDay { dueDay.prefix(4).elementsEqual(today.prefix(4)) }
            else if let moment { moment.day.year == todayDay.year } else { false }
        let priority = TodoPriority(rank: row.priority)?.rawValue
        let tags = Self.tags(row.tags)
        if let columns, columns - (4 + idWidth + 2) >= Self.narrowestTextColumn {
            var width = hasDue ? 4 + (sameYear ? 5 : 10) + (moment == nil ? 0 : 6) : -1
            if let priority { width += 2 + priority.utf8.count }
            width += tags.width
            if lastLineWidth + 2 + width > columns - (4 + idWidth + 2) {
                out.write("\n")
                out.write(UInt8(ascii: " "), count: 4 + idWidth + 2)
            } else {
                out.write("  ")
            }
        } else {
            out.write("  ")
        }
        var first = true
        if hasDue {
            // Both forms sort as text: before today's date, or before now to the millisecond.
            let overdue = row.due.lexicographicallyPrecedes(dueDay != nil ? today : now)
            if usesColor && overdue { out.write(Self.red) }
            out.write("due ")
            if let dueDay {
                out.write(UnsafeBufferPointer(rebasing: dueDay[(sameYear ? 5 : 0)...]))
            } else if let moment, let dueDayText {
                out.write(sameYear ? String(dueDayText.dropFirst(5)) : dueDayText)
                out.write(UInt8(ascii: " "))
                Self.writeTwoDigits(moment.minutes / 60, to: out)
                out.write(UInt8(ascii: ":"))
                Self.writeTwoDigits(moment.minutes % 60, to: out)
            }
            if usesColor && overdue { out.write(Self.reset) }
            first = false
        }
        if let priority {
            out.write(first ? "!" : " !")
            out.write(priority)
            first = false
        }
        tags.write(to: out, first: first)
    }

    /// The local day and minute of the day of a moment's stored text, in `timeZone`.
    private func localTime(_ text: UnsafeBufferPointer<UInt8>) -> (day: CalendarDay, minutes: Int)? {
        guard let date = ISO8601.date(from: String(decoding: text, as: UTF8.self)) else { return nil }
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        return (CalendarDay(daysSince1970: day), second / 60)
    }

    private static func writeTwoDigits(_ value: Int, to out: OutputBuffer) {
        out.write(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        out.write(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The tags of a row, as `#home #work`: read from the JSON array's bytes,
    /// or, for a tag with an escape in it, decoded as JSON.
    private enum Tags {
        case bytes(UnsafeBufferPointer<UInt8>, width: Int)
        case decoded([String], width: Int)

        var width: Int {
            switch self {
            case let .bytes(_, width), let .decoded(_, width): width
            }
        }

        func write(to out: OutputBuffer, first: Bool) {
            switch self {
            case let .bytes(json, _):
                // `["a","b"]`: each quoted run is a tag.
                var inTag = false, start = 0, first = first
                for index in json.indices where json[index] == UInt8(ascii: "\"") {
                    if inTag {
                        out.write(first ? "#" : " #")
                        out.write(UnsafeBufferPointer(rebasing: json[start..<index]))
                        first = false
                    }
                    inTag.toggle()
                    start = index + 1
                }
            case let .decoded(tags, _):
                for (index, tag) in tags.enumerated() {
                    out.write((first && index == 0 ? "#" : " #") + tag)
                }
            }
        }
    }

    private static func tags(_ json: UnsafeBufferPointer<UInt8>) -> Tags {
        guard json.count > 0 else { return .bytes(json, width: 0) }
        if json.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) {
            // ASCII, no escapes: a column a byte. `["a","bc"]` shows as ` #a #bc`
            // (with the space before it): the brackets go, each tag's quotes
            // become a space and a #, each comma goes.
            let count = json.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) } / 2
            return .bytes(json, width: count == 0 ? 0 : json.count - 1 - count)
        }
        let tags = TagList.decode(String(decoding: json, as: UTF8.self))
        return .decoded(tags, width: tags.reduce(0) { $0 + 2 + $1.displayWidth })
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

    /// `due 12-01 !high #home`, without colour; "" when the todo has none of them.
    func summary(_ item: TodoItem) -> String {
        var parts: [String] = []
        if let due = item.due { parts.append("due " + compact(due)) }
        if let priority = item.priority { parts.append("!" + priority.rawValue) }
        parts += item.tags.map { "#" + $0 }
        return parts.joined(separator: " ")
    }

    /// Every detail of one todo, every field named, the note on lines of its own.
    func details(_ todo: ListedTodo) -> String {
        let item = todo.item
        var out = ""
        out += "ID         \(item.idString) (short: \(todo.shortID))\n"
        out += "Text       \(item.text)\n"
        out += "Status     \(item.isDone ? "done" : "pending")\n"
        out += "Due        \(item.due.map(longForm) ?? "none")\n"
        out += "Priority   \(item.priority?.rawValue ?? "none")\n"
        out += "Tags       \(item.tags.isEmpty ? "none" : item.tags.joined(separator: " "))\n"
        out += "Repeat     \(item.recurrence?.description ?? "none")\n"
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

    /// `2026-12-01 (Tue)`, or `2026-12-01 14:30 Europe/Berlin (Tue), 2026-12-01T13:30:00.000Z` for a time,
    /// with `overdue` after a date already past.
    private func longForm(_ due: TodoDue) -> String {
        let day = due.day(in: timeZone)
        let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday - 1]
        var text = day.description
        if let time = due.timeOfDay(in: timeZone) {
            text += " \(time) \(timeZone.identifier) (\(weekday)), \(due.text)"
        } else {
            text += " (\(weekday))"
        }
        let stored = Array(due.text.utf8)
        if stored.lexicographicallyPrecedes(stored.count == 10 ? today : now) { text += ", overdue" }
        return text
    }
}
