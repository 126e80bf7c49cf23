import Foundation
import TodoCore
import TodoTerminal

extension TodoFormatter {
    /// The fields after the text (`due 12-01 !high #bills #home`), on the
    /// text's last line when they fit, else under it; written from the row's
    /// bytes, without a `TodoDue` or a `String` for a date, a priority or an
    /// ASCII tag: half the todos of a list have a field, and a million of them
    /// must print at the pace of the rest (`todo list` in Benchmarks/run.sh).
    func writeFields(_ row: RawTodoRow, after lastLineWidth: Int, to out: OutputBuffer) {
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
            if row.project.count > 0 { width += 2 + String(decoding: row.project, as: UTF8.self).displayWidth }
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
            // Both forms sort as text: before today's date, or before now to the
            // millisecond; a done todo is not overdue.
            let overdue = !row.isDone && row.due.lexicographicallyPrecedes(dueDay != nil ? today : now)
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
        if row.project.count > 0 {
            out.write(first ? "+" : " +")
            out.write(row.project)
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
}
