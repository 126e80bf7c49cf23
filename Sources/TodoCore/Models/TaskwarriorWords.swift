import Foundation

/// Taskwarrior's attribute words among the words of a todo, read as
/// `task add` and `task modify` read them: `due:tomorrow`, the other dates
/// (`wait:`, `start:`…), `project:home` (`pro:`), `priority:H` (`pri:`),
/// `depends:3f2a,91bc`, `recur:weekly`, `+tag`, and, in an edit, `-tag`.
/// An attribute's name may be cut to any three letters or more that begin
/// one name only (`sched:`, `proj:`), as Taskwarrior allows; an empty value
/// (`due:`) clears the field. Every other word is text, and so is a word
/// with a space in it (quoted as text) and every word after `--`.
///
/// Pure: the command line's `add` and `edit` and the view's input line read
/// words through it, so `due:fri` means the same wherever it is typed.
public struct TaskwarriorWords: Sendable {
    /// The words that are text, in order.
    public var text: [String] = []
    /// The fields the attribute words set.
    public var edit = TodoEdit()
    /// What was read, for the command to echo: `due:tomorrow` as `.due`.
    public var read: [(word: String, field: TodoField)] = []
    /// Words that look like attributes but are none todo reads
    /// (`status:done`, `duw:fri`): kept as text, each with a hint.
    public var hints: [String] = []

    /// The attribute names read, each with the field it sets.
    /// The dates under their keys (`due:`, `wait:`, `start:`…), as Taskwarrior names them.
    static let attributes: [(name: String, field: TodoField)] = TodoField.allCases.filter { $0.kind == .date }.map { ($0.key, $0) } + [
        ("project", .project), ("priority", .priority), ("depends", .blockedBy), ("recur", .recurrence),
    ]

    /// The date attributes, for a help text: `due:, wait:, …`.
    public static var dateWords: String {
        attributes.filter { $0.field.kind == .date }.map { $0.name + ":" }.joined(separator: ", ")
    }

    /// Taskwarrior's attributes with no field here, so a hint can say so.
    static let unread = ["status", "end", "entry", "modified", "uuid", "description", "tags", "parent", "mask", "imask", "id", "urgency", "limit"]

    /// Nothing read yet.
    public init() {}

    /// Reads `words`; `editing` reads `-tag` as a tag to take off (in an
    /// add it is text). Words after a `--` word are text (the `--` is not).
    public init(_ words: [String], editing: Bool = false, now: Date, timeZone: TimeZone) throws(TodoFieldError) {
        var terminated = false
        for word in words {
            if terminated {
                text.append(word)
            } else if word == "--" {
                terminated = true
            } else if try !read(word, editing: editing, now: now, timeZone: timeZone) {
                text.append(word)
            }
        }
    }

    /// Reads one word into the edit; false if it is text. A word with a
    /// space in it was quoted as text (`"Project: the report"`): text.
    private mutating func read(_ word: String, editing: Bool, now: Date, timeZone: TimeZone) throws(TodoFieldError) -> Bool {
        guard !word.contains(where: \.isWhitespace) else { return false }
        if let sign = word.first, sign == "+" || (sign == "-" && editing), word.dropFirst().first?.isLetter == true {
            let tag = try TodoTags.validated(String(word.dropFirst()))
            if sign == "+" { edit.addTags.append(tag) } else { edit.removeTags.append(tag) }
            read.append((word, .tags))
            return true
        }
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return false }
        let name = word[..<colon].lowercased(), value = String(word[word.index(after: colon)...])
        guard name.allSatisfy(\.isLetter) else { return false }
        guard let field = Self.field(named: name) else {
            if Self.unread.contains(name) || Self.attributes.contains(where: { Self.isNear(name, $0.name) }) {
                hints.append(word)
            }
            return false
        }
        let cleared = value.isEmpty
        switch field {
        case _ where field.kind == .date:
            var date: TodoDue?
            if !cleared {
                do throws(TodoFieldError) {
                    date = try DueDateGrammar.parse(value, now: now, in: timeZone)
                } catch let .badDue(text, suggestion) where field != .due {
                    throw .badDate(text, option: field.rawValue, suggestion: suggestion)
                }
            }
            edit[date: field] = .some(date)
        case .project:
            edit.project = .some(cleared ? nil : try TodoProject.validated(value))
        case .priority:
            guard cleared || TodoPriority(parsing: value) != nil else { throw .badPriority(value) }
            edit.priority = .some(cleared ? nil : TodoPriority(parsing: value))
        case .recurrence:
            edit.recurrence = .some(cleared ? nil : try TodoRepeat(typed: value))
        default:
            let ids = value.split(separator: ",").map(String.init)
            guard !ids.isEmpty else { throw .missingValue("depends:") }
            edit.addBlockers += ids
        }
        read.append((word, field))
        return true
    }

    /// The field an attribute's name (or three letters or more that begin
    /// one name only) sets: `due`, `sched`, `pro`; nil for another word.
    public static func field(named name: String) -> TodoField? {
        let name = name.lowercased()
        let matches = attributes.filter { $0.name == name || (name.count >= 3 && $0.name.hasPrefix(name)) }
        return matches.count == 1 ? matches[0].field : nil
    }

    /// A name one letter off an attribute's (`duw`, `prority`): a typo, not a word.
    static func isNear(_ typed: String, _ name: String) -> Bool {
        guard typed.count >= 3, abs(typed.count - name.count) <= 1 else { return false }
        let (a, b) = (Array(typed), Array(name))
        var row = Array(0...b.count)
        for i in 1...a.count {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            row = next
        }
        return row[b.count] == 1
    }

    /// What was read, said in a line: `Read due:tomorrow as due Sun 29 Nov,
    /// +family as tag family` (the year when not this one's, a time when
    /// there is one); nil when nothing was read.
    public func said(now: Date, timeZone: TimeZone) -> String? {
        guard !read.isEmpty else { return nil }
        let thisYear = CalendarDay(now, in: timeZone).year
        func date(_ name: String, _ value: TodoDue??) -> String {
            guard let due = value ?? nil else { return "no \(name) date" }
            let day = due.day(in: timeZone)
            let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday - 1]
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][day.month - 1]
            return "\(name) \(weekday) \(day.day) \(month)" + (day.year == thisYear ? "" : " \(day.year)")
                + (due.timeOfDay(in: timeZone).map { " \($0)" } ?? "")
        }
        let phrases = read.map { word, field in
            let value = word.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            let said: String = switch field {
            case _ where field.kind == .date: date(field.key, edit[date: field])
            case .project: value.isEmpty ? "no project" : "project \(value)"
            case .priority: (edit.priority ?? nil).map { "priority \($0.rawValue)" } ?? "no priority"
            case .recurrence: (edit.recurrence ?? nil).map { "repeat \($0.description)" } ?? "no repeat"
            case .blockedBy: "blocked by " + value.split(separator: ",").joined(separator: ", ")
            default: word.hasPrefix("+") ? "tag \(word.dropFirst())" : "without tag \(word.dropFirst())"
            }
            return "\(word) as \(said)"
        }
        return "Read " + phrases.joined(separator: ", ")
    }

    /// The hint for a word kept as text that looks like an attribute.
    public static func hint(for word: String) -> String {
        "'\(word)' is kept in the text: todo reads " + attributes.map { $0.name + ":, " }.joined()
            + "+tag and -tag (put text after -- to keep such words as they are)"
    }
}

extension TodoEdit {
    /// This edit (its options) with the fields `words` set as well; a field
    /// set both ways (`--due fri due:mon`) is refused, naming the word.
    public func adding(_ words: TaskwarriorWords) throws(TodoFieldError) -> TodoEdit {
        var edit = self
        let other = words.edit
        func take<Value>(_ path: WritableKeyPath<TodoEdit, Value??>, _ field: TodoField) throws(TodoFieldError) {
            guard let value = other[keyPath: path] else { return }
            guard edit[keyPath: path] == nil else {
                throw .setTwice(words.read.first { $0.field == field }?.word ?? field.rawValue)
            }
            edit[keyPath: path] = value
        }
        for field in TodoField.allCases where field.kind == .date { try take(\.[date: field], field) }
        try take(\.project, .project)
        try take(\.priority, .priority)
        try take(\.recurrence, .recurrence)
        edit.addTags += other.addTags
        edit.removeTags += other.removeTags
        edit.addBlockers += other.addBlockers
        return edit
    }
}
