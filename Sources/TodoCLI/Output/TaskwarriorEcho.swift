import Foundation
import TodoCore

/// What `add` and `edit` read of Taskwarrior's words among a todo's, said on
/// standard error so a script's output stays the todo's:
/// `Read due:tomorrow as due Sun 29 Nov, +family as tag family`; and a hint
/// for each word kept as text that looks like an attribute.
enum TaskwarriorEcho {
    static func write(_ words: TaskwarriorWords, timeZone: TimeZone = .current) {
        var lines: [String] = []
        if !words.read.isEmpty {
            let edit = words.edit
            let read = words.read.map { word, field in
                let value = word.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                let said: String = switch field {
                case .due: date("due", edit.due, timeZone)
                case .scheduled: date("scheduled", edit.scheduled, timeZone)
                case .wait: date("wait", edit.wait, timeZone)
                case .until: date("until", edit.until, timeZone)
                case .project: value.isEmpty ? "no project" : "project \(value)"
                case .priority: (edit.priority ?? nil).map { "priority \($0.rawValue)" } ?? "no priority"
                case .recurrence: (edit.recurrence ?? nil).map { "repeat \($0.description)" } ?? "no repeat"
                case .blockedBy: "blocked by " + value.split(separator: ",").joined(separator: ", ")
                default: word.hasPrefix("+") ? "tag \(word.dropFirst())" : "without tag \(word.dropFirst())"
                }
                return "\(word) as \(said)"
            }
            lines.append("Read " + read.joined(separator: ", "))
        }
        lines += words.hints.map(TaskwarriorWords.hint(for:))
        guard !lines.isEmpty else { return }
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// `due Sun 29 Nov` (with the year when it is not this one, the time when there is one), or `no due date`.
    private static func date(_ name: String, _ value: TodoDue??, _ timeZone: TimeZone) -> String {
        guard let due = value ?? nil else { return "no \(name) date" }
        let day = due.day(in: timeZone)
        let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday - 1]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][day.month - 1]
        let year = day.year == CalendarDay(Date(), in: timeZone).year ? "" : " \(day.year)"
        return "\(name) \(weekday) \(day.day) \(month)\(year)" + (due.timeOfDay(in: timeZone).map { " \($0)" } ?? "")
    }
}
