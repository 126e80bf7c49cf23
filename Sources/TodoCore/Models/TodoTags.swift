import Foundation

/// The rules for tags and notes.
public enum TodoTags {
    public static let maximumLength = 100

    /// A tag made fit to store: trimmed; one word (no space, no control
    /// character, no comma), at most `maximumLength` characters.
    public static func validated(_ raw: String) throws(TodoFieldError) -> String {
        var tag = raw.trimmingCharacters(in: .whitespaces)
        // `--tag #home` as lists show it: the tag is `home`.
        if tag.hasPrefix("#") { tag.removeFirst() }
        guard !tag.isEmpty else { throw .emptyTag }
        guard tag.count <= maximumLength else { throw .tagTooLong(tag, limit: maximumLength) }
        guard tag.unicodeScalars.allSatisfy({ scalar in
            scalar != "," && !scalar.properties.isWhitespace
                && scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format
        }) else { throw .tagNotOneWord(tag) }
        return tag
    }

    /// Tags as stored: distinct and sorted.
    public static func normalized(_ tags: some Sequence<String>) -> [String] {
        Array(Set(tags)).sorted()
    }
}

public enum TodoNote {
    public static let maximumLength = 100_000

    /// A note made fit to store: several lines allowed, line ends kept as
    /// `\n`; nil when nothing but white space is left.
    public static func validated(_ raw: String) throws(TodoFieldError) -> String? {
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard text.count <= maximumLength else { throw .noteTooLong(length: text.count, limit: maximumLength) }
        guard text.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\t" || $0.properties.generalCategory != .control }) else {
            throw .noteHasControlCharacters
        }
        return text
    }
}


/// The rules for projects: names joined by dots, the widest first
/// (`home.garden`), as Taskwarrior writes them.
public enum TodoProject {
    public static let maximumLength = 100

    /// A project made fit to store: trimmed; parts that are each one word
    /// (no space, comma or control character), none empty.
    public static func validated(_ raw: String) throws(TodoFieldError) -> String {
        let project = raw.trimmingCharacters(in: .whitespaces)
        guard !project.isEmpty else { throw .badProject(raw) }
        guard project.count <= maximumLength else { throw .projectTooLong(project, limit: maximumLength) }
        let parts = project.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { scalar in
                scalar != "," && !scalar.properties.isWhitespace
                    && scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format
            }
        }) else { throw .badProject(project) }
        return project
    }

    /// Whether `project` is `filter` or one of its sub-projects (`home`
    /// holds `home` and `home.garden`, not `homework`).
    public static func project(_ project: String?, isWithin filter: String) -> Bool {
        // Byte by byte, as SQLite compares: canonically equivalent spellings differ here.
        guard let project, project.utf8.starts(with: filter.utf8) else { return false }
        return project.utf8.count == filter.utf8.count || project.utf8.dropFirst(filter.utf8.count).first == UInt8(ascii: ".")
    }

    /// `project` and every project it is part of, the widest first:
    /// `home.garden` gives `home`, `home.garden`.
    public static func lineage(of project: String) -> [String] {
        var names: [String] = []
        var current = ""
        for part in project.split(separator: ".") {
            current += current.isEmpty ? String(part) : "." + part
            names.append(current)
        }
        return names
    }
}

/// What is wrong with a due date, priority, tag, note or repeat, saying what to do.
public enum TodoFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyTag
    case tagTooLong(String, limit: Int)
    case tagNotOneWord(String)
    case noteTooLong(length: Int, limit: Int)
    case noteHasControlCharacters
    case badProject(String)
    case projectTooLong(String, limit: Int)
    /// A list's name that is no project of one part (`ListName`).
    case badList(String)
    case badContextName(String)
    case badPriority(String)
    case badRepeat(String)
    /// A rule the engine does not follow (HOURLY, BYHOUR, RDATE, …): kept
    /// where another app wrote it, refused where a person types it.
    case repeatNotFollowed(String)
    /// A repeat's count or its counting from completion, with no repeat to go with.
    case repeatDetailWithoutRepeat(String)
    /// A text that is no due date, with the nearest form that is one, if a word looks mistyped.
    case badDue(String, suggestion: String? = nil)
    /// A text that is no date, given to `option` (`--wait`, or another of the plan's dates).
    case badDate(String, option: String, suggestion: String? = nil)
    case repeatNeedsDue
    /// `--parent` naming the todo itself.
    case ownParent
    /// `--blocked-by` naming the todo itself.
    case blocksItself
    /// An option typed last on a line, with no value after it.
    case missingValue(String)
    /// A Taskwarrior word (`due:mon`) setting a field an option sets too.
    case setTwice(String)
    /// `--untag` of a tag the todo does not have: its tags, to pick from.
    case noSuchTag(String, tags: [String])

    /// A due date's first word alone (`next`, `dec`): most likely a date
    /// of several words that a shell split.
    public var isPartOfADate: Bool {
        guard case let .badDue(text, nil) = self, !DueDateGrammar.isNumericDate(text) else { return false }
        return ["next", "in"].contains(text.lowercased()) || DueDateGrammar.months.contains { $0.contains(text.lowercased()) }
    }

    /// What is wrong with the value, in words every front end can show;
    /// the command line adds the option to give (`commandLineWords`).
    public var description: String {
        switch self {
        case .emptyTag:
            "a tag is empty: give it a word"
        case let .tagTooLong(tag, limit):
            "tag '\(tag.prefix(20))…' is longer than \(limit) characters: shorten it"
        case let .tagNotOneWord(tag):
            "tag '\(tag)' is not one word: tags hold no spaces or commas"
        case let .noteTooLong(length, limit):
            "the note is \(length) characters long: the limit is \(limit), shorten it"
        case .noteHasControlCharacters:
            "the note contains a control character: keep to text, tabs and line breaks"
        case let .badProject(text):
            "'\(text)' is not a project: use names joined by dots, e.g. home.garden (no spaces, commas or empty parts)"
        case let .projectTooLong(project, limit):
            "project '\(project.prefix(20))…' is longer than \(limit) characters: shorten it"
        case let .badList(text):
            "'\(text)' is not a list: a list is a project's first part, one word such as shopping (no dots, spaces or commas)"
        case let .badContextName(text):
            "'\(text)' is no context name: use one word of letters, digits, - and _ (at most 40), not none"
        case let .badPriority(text):
            "'\(text)' is not a priority: use high, medium, low or none"
        case let .badRepeat(text):
            if let nearest = RepeatWords.nearest(text) {
                "'\(text)' is not a repeat: did you mean '\(nearest)'?"
            } else {
                "'\(text)' is not a repeat: write it like weekly, 3d, weekdays, mon,fri, every 2 weeks, monthly on the last friday "
                    + "or yearly on dec 24, or as an RRULE such as FREQ=MONTHLY;BYDAY=2TU"
            }
        case let .repeatNotFollowed(text):
            "'\(text)' is a rule todo does not follow (it holds a part such as HOURLY, BYHOUR, BYWEEKNO or RDATE, or one it cannot read), "
                + "so no next occurrence would come of it: write it like weekly, weekdays, every 2 weeks or monthly on the last friday, "
                + "or as an RRULE such as FREQ=MONTHLY;BYDAY=2TU"
        case let .repeatDetailWithoutRepeat(detail):
            "\(detail) belongs to a repeat, and none is given"
        case let .badDue(text, suggestion?):
            "'\(text)' is not a due date: did you mean '\(suggestion)'?"
        case let .badDue(text, nil) where DueDateGrammar.isNumericDate(text):
            "'\(text)' is not a due date: the order of day and month differs from place to place, so it is not guessed; write the year first, like 2026-12-24"
        case let .badDue(text, nil) where isPartOfADate:
            "'\(text)' is not a due date on its own: give the whole date, like next week or dec 24"
        case let .badDue(text, nil):
            "'\(text)' is not a due date: use today, tomorrow, a weekday (fri), in 3 days, next week, dec 24, tomorrow 5pm, +2w, eom, 2026-12-01 or 2026-12-01T14:30"
        case let .badDate(text, option, suggestion?):
            "'\(text)' is not a date for \(option): did you mean '\(suggestion)'?"
        case let .badDate(text, option, nil) where DueDateGrammar.isNumericDate(text):
            "'\(text)' is not a date for \(option): the order of day and month differs from place to place, so it is not guessed; write the year first, like 2026-12-24"
        case let .badDate(text, option, nil):
            "'\(text)' is not a date for \(option): use today, tomorrow, a weekday (fri), in 3 days, next week, dec 24, tomorrow 5pm, 2026-12-01 or none; quote a date of several words"
        case let .setTwice(word):
            "'\(word)' sets a field an option sets too: give one of them"
        case let .missingValue(option):
            "\(option) needs a value after it"
        case let .noSuchTag(tag, tags):
            "the todo has no tag '\(tag)'" + (tags.isEmpty ? ": it has no tags" : ": its tags are " + tags.joined(separator: ", "))
        case .repeatNeedsDue:
            "a repeating todo needs a due date"
        case .ownParent:
            "a todo cannot be its own parent"
        case .blocksItself:
            "a todo cannot block itself"
        }
    }
}
