import Foundation
import TodoCore

/// The todo.txt format (todotxt.org), read and written.
///
/// A line: `x` and a completion date if done, else a priority `(A)`; then a
/// creation date; then the text, with `+project` and `@context` words and
/// `key:value` pairs anywhere in it.
///
/// - `(A)` is high, `(B)` medium, `(C)` low; `(D)` to `(Z)` are low too (a
///   priority was given; low is the least there is here). A done line's
///   `pri:A` (how some tools keep a priority on completion) counts the same.
/// - `+garden` is the tag `garden`, `@phone` the tag `@phone`: written back as
///   they were read, any other tag as `+tag`. Both leave the text.
/// - `due:2026-12-15` is the due date and leaves the text; any other
///   `key:value` stays in the text as typed.
/// - `rec:1w` (the recurrence add-on's, with a due date) repeats every week
///   counted from the day it is done; `rec:+1w` every week from its due date
///   (the strict chain); units d, w, m, y. Written back the same way; a
///   repeat counted from the due date is written with `+`, and a rule
///   todo.txt cannot say (weekdays) is left out, as a note is.
/// - Dates are calendar dates: a creation or completion date is midnight of
///   that day in `timeZone`; a line without a creation date was created at
///   the time of the import.
/// - A line has no id of its own: a todo's id is derived from its line, so
///   importing the same file again finds the same todos (an import keeps
///   those as they are here); a line changed in the file is a new todo. The
///   second of two equal lines is told apart by its count.
public enum TodoTxt {
    /// The todos in a todo.txt file, one a line; blank lines are skipped.
    public static func todos(from text: String, timeZone: TimeZone, now: Date) throws(InterchangeError) -> [TodoItem] {
        var items: [TodoItem] = []
        var seen: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else { continue }
            let count = (seen[line] ?? 0) + 1
            seen[line] = count
            let id = UUID(derivedFrom: "todo.txt|" + line + (count > 1 ? "|\(count)" : ""))
            do {
                items.append(try todo(line: line, id: id, timeZone: timeZone, now: now))
            } catch {
                throw InterchangeError(line: index + 1, error.reason)
            }
        }
        return items
    }

    /// What is wrong with a line.
    public struct LineProblem: Error, Equatable {
        public var reason: String
    }

    /// The todo one (non-blank, trimmed) line holds.
    public static func todo(line: String, id: UUID, timeZone: TimeZone, now: Date) throws(LineProblem) -> TodoItem {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        var isDone = false
        var completed: CalendarDay?
        var created: CalendarDay?
        var priority: TodoPriority?
        if words.first == "x" {
            isDone = true
            words.removeFirst()
            completed = words.first.flatMap(CalendarDay.init(parsing:))
            if completed != nil { words.removeFirst() }
        } else if let first = words.first, let rank = priorityLetter(first) {
            priority = rank
            words.removeFirst()
        }
        created = words.first.flatMap(CalendarDay.init(parsing:))
        if created != nil { words.removeFirst() }

        var text: [Substring] = []
        var tags: [String] = []
        var due: TodoDue?
        var recurrence: (rule: TodoRepeat, word: Substring, place: Int)?
        for word in words {
            if word.count > 1, word.hasPrefix("+") {
                tags.append(String(word.dropFirst()))
            } else if word.count > 1, word.hasPrefix("@") {
                tags.append(String(word))
            } else if word.hasPrefix("due:") {
                guard let day = CalendarDay(parsing: word.dropFirst(4)) else {
                    throw LineProblem(reason: "'\(word)' is not a due date: todo.txt writes it as due:YYYY-MM-DD, e.g. due:2026-12-15")
                }
                due = .day(day)
            } else if word.hasPrefix("rec:"), let read = Self.repeating(word.dropFirst(4)) {
                recurrence = (read, word, text.count)
            } else if isDone, word.hasPrefix("pri:"), word.count == 5, let rank = priorityLetter("(\(word.last!))") {
                priority = rank
            } else {
                text.append(word)
            }
        }
        // A repeat needs a due date: without one, `rec:` stays in the text as typed.
        if due == nil, let (_, word, place) = recurrence {
            text.insert(word, at: place)
            recurrence = nil
        }
        do {
            // A line of tags only keeps them as its text too.
            let checkedText = try TodoText.validated((text.isEmpty ? Array(words) : text).joined(separator: " "))
            let checkedTags = try tags.map { tag throws(TodoFieldError) in try TodoTags.validated(tag) }
            let createdAt = created?.start(in: timeZone) ?? now
            let completedAt = isDone ? completed?.start(in: timeZone) ?? createdAt : nil
            return TodoItem(
                id: id, text: checkedText, isDone: isDone, createdAt: createdAt,
                updatedAt: max(createdAt, completedAt ?? createdAt), completedAt: completedAt,
                due: due, priority: priority, tags: checkedTags, recurrence: recurrence?.rule
            )
        } catch let error as TodoError {
            throw LineProblem(reason: error.description)
        } catch let error as TodoFieldError {
            throw LineProblem(reason: error.description)
        } catch {
            throw LineProblem(reason: "\(error)")
        }
    }

    /// `1w`, `+2d`, `m`: every N days, weeks, months or years, from
    /// completion, or (with `+`) from the due date; nil for anything else.
    static func repeating(_ value: Substring) -> TodoRepeat? {
        let strict = value.hasPrefix("+")
        let rest = strict ? value.dropFirst() : value
        let units: [Character: RecurrenceRule.Frequency] = ["d": .daily, "w": .weekly, "m": .monthly, "y": .yearly]
        guard let unit = rest.last, let frequency = units[unit] else { return nil }
        let digits = rest.dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = digits.isEmpty ? 1 : Int(digits) else { return nil }
        return TodoRepeat(every: count, frequency, anchor: strict ? .strict : .completion)
    }

    /// `rec:` of a repeat todo.txt can say: a plain rule, with `+` unless it counts from completion.
    static func recWord(_ recurrence: TodoRepeat) -> String? {
        guard let rule = recurrence.rule, rule.isPlain, recurrence.exceptions.isEmpty else { return nil }
        let unit: Character = switch rule.frequency {
        case .daily: "d"
        case .weekly: "w"
        case .monthly: "m"
        case .yearly: "y"
        }
        return "rec:" + (recurrence.anchor == .completion ? "" : "+") + "\(rule.interval)\(unit)"
    }

    /// `(A)`…`(Z)` as a priority: A high, B medium, C and after low.
    static func priorityLetter(_ word: some StringProtocol) -> TodoPriority? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count == 3, scalars[0] == "(", scalars[2] == ")", ("A"..."Z").contains(scalars[1]) else { return nil }
        switch scalars[1] {
        case "A": return .high
        case "B": return .medium
        default: return .low
        }
    }

    /// The line a todo is written as, which `todos(from:)` reads back to the
    /// same text, done mark, priority, tags, due date and repeat (`rec:`). A
    /// due moment is written as its date in `timeZone`; notes have no place
    /// in todo.txt and are left out (JSON export keeps them).
    public static func line(for item: TodoItem, timeZone: TimeZone) -> String {
        var words: [String] = []
        let letter = item.priority.map { priority in
            switch priority {
            case .high: "A"
            case .medium: "B"
            case .low: "C"
            }
        }
        if item.isDone {
            words.append("x")
            words.append(CalendarDay(item.completedAt ?? item.updatedAt, in: timeZone).description)
        } else if let letter {
            words.append("(\(letter))")
        }
        words.append(CalendarDay(item.createdAt, in: timeZone).description)
        words.append(item.text)
        // Projects, then contexts, as todo.txt lists them.
        words += item.tags.filter { !$0.hasPrefix("@") }.map { "+" + $0 } + item.tags.filter { $0.hasPrefix("@") }
        if let due = item.due {
            words.append("due:" + due.day(in: timeZone).description)
            if let rec = item.recurrence.flatMap(Self.recWord) { words.append(rec) }
        }
        if item.isDone, let letter {
            words.append("pri:" + letter)
        }
        return words.joined(separator: " ")
    }
}
