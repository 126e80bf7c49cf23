import Foundation
import TodoCore

/// Reads what `task export` writes (Taskwarrior 2.6): a JSON array of tasks,
/// or one task object per line.
///
/// - Each task keeps its `uuid` as the todo's id, so importing the same
///   export again changes nothing, and a later export updates what changed.
/// - `pending` and `waiting` tasks are todos to do, `completed` ones done
///   (completed at `end`). `deleted` tasks are left out: an import adds and
///   updates, it never deletes.
/// - `entry` is when the todo was created, `modified` when it last changed.
/// - `due`: Taskwarrior writes it in UTC (`20261214T230000Z`); a due at
///   midnight in `timeZone` is that calendar date, any other time a moment.
/// - `priority` H, M, L is high, medium, low; any other value (a custom one)
///   is no priority.
/// - `project` is the todo's project (`home.garden`); `wait`, `scheduled`
///   and `until` are its dates of those names, read as `due` is; `start`
///   (`task start`) is when it was started, a moment.
/// - `depends` (UUIDs, joined by commas in 2.6, an array in 3) are the
///   todos that block it: the tasks' own ids, as they are imported.
/// - `annotations` make the note, one line each: its date, then its text.
/// - A recurring task: the template (status `recurring`) is left out; its
///   earliest pending instance is a todo that repeats by the template's
///   `recur` (`weekly`, `3d`, `2wks`, `monthly`, `quarterly`, …), so
///   completing it here brings the next one; the later pending instances
///   Taskwarrior made ahead are left out, as they would repeat too. A `recur`
///   that a todo cannot repeat by (`weekdays`, hours) is kept as a line of
///   the note instead.
public enum Taskwarrior {
    /// What an export held: its todos.
    public struct Export: Sendable, Equatable {
        public var todos: [TodoItem]
    }

    public static func todos(fromExport data: Data, timeZone: TimeZone) throws(InterchangeError) -> [TodoItem] {
        try read(data, timeZone: timeZone).todos
    }

    public static func read(_ data: Data, timeZone: TimeZone) throws(InterchangeError) -> Export {
        let isArray = data.first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "[")
        // One object per line (rc.json.array=off) read as an array of them.
        var lines: [Int] = []
        let json: Data
        if isArray {
            json = data
            lines = JSONElementLines.lines(of: data)
        } else {
            var objects: [Substring] = []
            for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let object = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !object.isEmpty else { continue }
                objects.append(Substring(object.hasSuffix(",") ? String(object.dropLast()) : object))
                lines.append(index + 1)
            }
            json = Data(("[" + objects.joined(separator: ",\n") + "]").utf8)
        }
        let tasks: [ExportedTask]
        do {
            tasks = try JSONDecoder().decode([ExportedTask].self, from: json)
        } catch let error as DecodingError {
            throw problem(error, lines: lines)
        } catch {
            throw InterchangeError(line: nil, "not JSON: export it with task export")
        }
        var items: [TodoItem] = []
        // The pending instance of each recurring series kept so far, by its template.
        var series: [UUID: Int] = [:]
        for (index, task) in tasks.enumerated() {
            let line = index < lines.count ? lines[index] : nil
            do {
                guard let item = try task.todo(in: timeZone) else { continue }
                guard let parent = task.parent, item.recurrence != nil, !item.isDone else {
                    items.append(item)
                    continue
                }
                // One repeating todo a series: its earliest pending instance.
                // The later ones Taskwarrior made ahead (`recurrence.limit`)
                // are the occurrences completing it here brings.
                if let kept = series[parent] {
                    if Self.isEarlier(item, than: items[kept]) { items[kept] = item }
                } else {
                    series[parent] = items.count
                    items.append(item)
                }
            } catch {
                throw InterchangeError(line: line, "task \(task.uuid.lowercasedString) (“\(task.description)”): \(error.reason)")
            }
        }
        return Export(todos: items)
    }

    /// Whether `item` is due before `other` (created before it, on the same due date).
    private static func isEarlier(_ item: TodoItem, than other: TodoItem) -> Bool {
        guard let due = item.due, let otherDue = other.due else { return false }
        let (mine, theirs) = (due.text, otherDue.text)
        return mine != theirs ? mine < theirs : item.createdAt < other.createdAt
    }

    /// A task as `task export` writes it: the fields a todo takes.
    struct ExportedTask: Decodable {
        var uuid: UUID
        var description: String
        var status: String
        var entry: String?
        var modified: String?
        var end: String?
        var due: String?
        var priority: String?
        var project: String?
        var tags: [String]?
        var annotations: [Annotation]?
        var recur: String?
        /// The template of a recurring task's instance.
        var parent: UUID?
        var wait: String?
        var scheduled: String?
        var until: String?
        var depends: Depends?
        /// When `task start` started it: the todo's start, a moment.
        var start: String?

        /// `depends`: `"uuid,uuid"` (Taskwarrior 2.6) or `["uuid", …]` (3).
        struct Depends: Decodable {
            var ids: [UUID]

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                let texts = try (try? container.decode([String].self))
                    ?? container.decode(String.self).split(separator: ",").map(String.init)
                ids = try texts.map { text in
                    guard let id = UUID(parsing: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
                        throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a task's UUID")
                    }
                    return id
                }
            }
        }

        struct Annotation: Decodable {
            var entry: String?
            var description: String
        }
    }

    /// A task's field that cannot be a todo's.
    struct FieldProblem: Error {
        var reason: String
    }

    /// Taskwarrior's date form, `20261214T230000Z` (the extended ISO form is read too).
    static func date(_ text: String, field: String) throws(FieldProblem) -> Date {
        let digits = text.filter { $0 != "-" && $0 != ":" }
        let parts = digits.split(separator: "T")
        guard parts.count == 2, parts[0].count == 8, parts[1].count == 7, parts[1].hasSuffix("Z"),
              let day = Int(parts[0]), let time = Int(parts[1].dropLast()),
              let date = DateComponents(
                  calendar: utcCalendar, year: day / 10_000, month: day / 100 % 100, day: day % 100,
                  hour: time / 10_000, minute: time / 100 % 100, second: time % 100
              ).date
        else { throw FieldProblem(reason: "\(field) '\(text)' is not a Taskwarrior date such as 20261214T230000Z") }
        return date
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `recur` as a todo's repeat: nil if a todo cannot repeat that way.
    /// `weekdays` is Monday to Friday; the rest are a count of a unit.
    public static func repeating(_ recur: String) -> TodoRepeat? {
        let text = recur.lowercased().trimmingCharacters(in: .whitespaces)
        if text == "weekdays" { return RepeatWords.read("weekdays") }
        let named: [String: (Int, RecurrenceRule.Frequency)] = [
            "daily": (1, .daily), "day": (1, .daily), "weekly": (1, .weekly), "week": (1, .weekly), "sennight": (1, .weekly),
            "biweekly": (2, .weekly), "fortnight": (2, .weekly), "monthly": (1, .monthly), "month": (1, .monthly),
            "bimonthly": (2, .monthly), "quarterly": (3, .monthly), "semiannual": (6, .monthly),
            "yearly": (1, .yearly), "year": (1, .yearly), "annual": (1, .yearly), "biannual": (2, .yearly), "biyearly": (2, .yearly),
        ]
        if let (count, frequency) = named[text] { return TodoRepeat(every: count, frequency) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let count = digits.isEmpty ? 1 : Int(digits) else { return nil }
        let units: [String: (Int, RecurrenceRule.Frequency)] = [
            "d": (1, .daily), "day": (1, .daily), "days": (1, .daily),
            "w": (1, .weekly), "wk": (1, .weekly), "wks": (1, .weekly), "week": (1, .weekly), "weeks": (1, .weekly),
            "m": (1, .monthly), "mo": (1, .monthly), "mos": (1, .monthly), "mth": (1, .monthly), "mths": (1, .monthly),
            "month": (1, .monthly), "months": (1, .monthly),
            "q": (3, .monthly), "qtr": (3, .monthly), "qtrs": (3, .monthly), "quarter": (3, .monthly), "quarters": (3, .monthly),
            "y": (1, .yearly), "yr": (1, .yearly), "yrs": (1, .yearly), "year": (1, .yearly), "years": (1, .yearly),
        ]
        guard let (multiple, frequency) = units[String(text.dropFirst(digits.count))] else { return nil }
        return TodoRepeat(every: count * multiple, frequency)
    }

    private static func problem(_ error: DecodingError, lines: [Int]) -> InterchangeError {
        func place(_ path: [any CodingKey]) -> (Int?, String) {
            guard let index = path.first?.intValue else { return (nil, "") }
            let field = path.dropFirst().map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return (index < lines.count ? lines[index] : nil, field.isEmpty ? "the task" : "field '\(field)'")
        }
        switch error {
        case let .keyNotFound(key, context):
            let (line, _) = place(context.codingPath)
            return InterchangeError(line: line, "the task has no '\(key.stringValue)': is this task export output?")
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            if context.codingPath.isEmpty {
                return InterchangeError(line: nil, "the top level should be an array of tasks, as task export writes")
            }
            let (line, field) = place(context.codingPath)
            return InterchangeError(line: line, "\(field) has the wrong type for task export output")
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                return InterchangeError(line: nil, "the JSON is malformed or truncated: export it again with task export")
            }
            let (line, field) = place(context.codingPath)
            return InterchangeError(line: line, field == "field 'uuid'" ? "'uuid' is not a UUID" : "\(field): \(context.debugDescription)")
        @unknown default:
            return InterchangeError(line: nil, "\(error)")
        }
    }
}

extension Taskwarrior.ExportedTask {
    /// The todo this task is; nil for one left out (deleted, or a recurring template).
    func todo(in timeZone: TimeZone) throws(Taskwarrior.FieldProblem) -> TodoItem? {
        let isDone: Bool
        switch status {
        case "pending", "waiting": isDone = false
        case "completed": isDone = true
        case "deleted", "recurring": return nil
        default: throw .init(reason: "status '\(status)' is not one Taskwarrior writes (pending, waiting, completed, deleted, recurring)")
        }
        guard let entry else { throw .init(reason: "it has no 'entry' date: task export always writes one") }
        let createdAt = try Taskwarrior.date(entry, field: "entry")
        let updatedAt = try modified.map { text throws(Taskwarrior.FieldProblem) in try Taskwarrior.date(text, field: "modified") }
        let end = try end.map { text throws(Taskwarrior.FieldProblem) in try Taskwarrior.date(text, field: "end") }
        // A date at midnight in `timeZone` is that calendar date, any other time a moment.
        func planned(_ text: String?, _ field: String) throws(Taskwarrior.FieldProblem) -> TodoDue? {
            guard let text else { return nil }
            let date = try Taskwarrior.date(text, field: field)
            let day = CalendarDay(date, in: timeZone)
            return day.start(in: timeZone) == date ? TodoDue.day(day) : TodoDue.moment(date)
        }
        let due = try planned(due, "due")
        var noteLines: [String] = []
        for annotation in annotations ?? [] {
            let date = try annotation.entry.map { text throws(Taskwarrior.FieldProblem) in try Taskwarrior.date(text, field: "annotation entry") }
            noteLines.append((date.map { CalendarDay($0, in: timeZone).description + " " } ?? "") + annotation.description)
        }
        var recurrence: TodoRepeat?
        if let recur {
            recurrence = Taskwarrior.repeating(recur)
            if recurrence == nil { noteLines.append("Taskwarrior recur: \(recur)") }
        }
        do {
            let text = try TodoText.validated(description)
            let tags = try (tags ?? []).map { tag throws(TodoFieldError) in try TodoTags.validated(tag) }
            let projectName = try project.map { name throws(TodoFieldError) in try TodoProject.validated(name) }
            let note = noteLines.isEmpty ? nil : try TodoNote.validated(noteLines.joined(separator: "\n"))
            var item = TodoItem(
                id: uuid, text: text, isDone: isDone, createdAt: createdAt,
                updatedAt: max(updatedAt ?? createdAt, createdAt),
                completedAt: isDone ? (end ?? updatedAt ?? createdAt) : nil,
                due: due, priority: priority.flatMap { ["H": TodoPriority.high, "M": .medium, "L": .low][$0] },
                tags: tags, note: note, recurrence: due == nil ? nil : recurrence, project: projectName,
                wait: try planned(wait, "wait"), scheduled: try planned(scheduled, "scheduled"), until: try planned(until, "until"),
                blockedBy: (depends?.ids ?? []).filter { $0 != uuid }
            )
            item.start = try start.map { text throws(Taskwarrior.FieldProblem) in TodoDue.moment(try Taskwarrior.date(text, field: "start")) }
            return item
        } catch let error as TodoError {
            throw .init(reason: error.description)
        } catch let error as TodoFieldError {
            throw .init(reason: error.description)
        } catch {
            throw .init(reason: "\(error)")
        }
    }
}
