import Foundation
import TodoCore

/// The view's line grammar: a line typed to add or edit a todo reads the
/// options `todo add` and `todo edit` take, the same way (with no shell
/// between, a date of several words needs no quotes). It lives with the view
/// that reads it; the command line's own parser is ArgumentParser's, and
/// `OptionListsTests` holds the two to the same options.
extension TodoEdit {
    /// A line typed in a view to add or edit a todo: words of text among the
    /// options `todo add` and `todo edit` take, read the same way: `--due fri`,
    /// `--priority high`, `--tag home` or `#home`, `--untag home`, `--note "call
    /// first"`, `--repeat weekly`, `--project home.garden`, the plan's dates
    /// (`--wait` and the rest), each with `none` to clear, `--parent`
    /// (or none), `--blocked-by` and `--unblock` IDs. Dates are read at
    /// `now` in `timeZone`. The text is the words left (nil: none, fields only).
    /// A `#` word is a tag when a letter follows the `#` and it is not a word
    /// of `text`, the todo's text before the edit (`fix #frontend build` keeps it);
    /// Taskwarrior's words (`due:fri`, `+home`, in an edit `-home`) are read as
    /// `TaskwarriorWords` reads them, with the same exception.
    init(line: String, text original: String = "", now: Date, timeZone: TimeZone) throws(TodoError) {
        var read = TaskwarriorWords()
        try self.init(line: line, text: original, now: now, timeZone: timeZone, reading: &read)
    }

    /// The edit a line asks for, and the Taskwarrior words read in it (for
    /// a view to say what it read, as the command line does).
    static func reading(
        line: String, text original: String = "", now: Date, timeZone: TimeZone
    ) throws(TodoError) -> (edit: TodoEdit, taskwarrior: TaskwarriorWords) {
        var read = TaskwarriorWords()
        let edit = try TodoEdit(line: line, text: original, now: now, timeZone: timeZone, reading: &read)
        return (edit, read)
    }

    private init(line: String, text original: String, now: Date, timeZone: TimeZone, reading taskwarrior: inout TaskwarriorWords) throws(TodoError) {
        self.init()
        let kept = Set(original.split(whereSeparator: \.isWhitespace).map(String.init))
        var words: [String] = []
        var count: Int?
        var tokens = Self.tokens(line)[...]
        do throws(TodoFieldError) {
            while let token = tokens.popFirst() {
                guard token.isOption else {
                    if token.text.hasPrefix("#"), token.text.dropFirst().first?.isLetter == true, !token.quoted,
                       !kept.contains(token.text) {
                        addTags.append(try TodoTags.validated(token.text))
                    } else if !token.quoted, !kept.contains(token.text),
                              case let read = try TaskwarriorWords([token.text], editing: !original.isEmpty, now: now, timeZone: timeZone),
                              !read.read.isEmpty {
                        // Taskwarrior's words, as the command line reads them: due:fri, +tag, -tag.
                        self = try adding(read)
                        taskwarrior.read += read.read
                        taskwarrior.edit = try taskwarrior.edit.adding(read)
                    } else {
                        words.append(token.text)
                    }
                    continue
                }
                guard let valueToken = tokens.popFirst() else { throw .missingValue(token.text) }
                let value = valueToken.text
                let clears = value.lowercased() == "none"
                switch (token.text, Self.dateOptions[token.text]) {
                case let (_, field?):
                    var date: TodoDue?
                    do throws(TodoFieldError) {
                        if clears {
                            date = nil
                        } else if !valueToken.quoted {
                            // No shell here: `--due next week` takes as many words as read as one date.
                            let following = tokens.prefix { !$0.isOption && !$0.quoted }.prefix(4).map(\.text)
                            let (parsed, count) = try DueDateGrammar.parseLongestPrefix(of: [value] + following, now: now, in: timeZone)
                            date = parsed
                            tokens = tokens.dropFirst(count - 1)
                        } else {
                            date = try DueDateGrammar.parse(value, now: now, in: timeZone)
                        }
                    } catch let .badDue(text, suggestion) where token.text != "--due" {
                        throw .badDate(text, option: token.text, suggestion: suggestion)
                    }
                    self[date: field] = .some(date)
                case ("--project", _): project = clears ? .some(nil) : .some(value)
                case ("--parent", _): parent = clears ? .some(nil) : .some(value)
                case ("--blocked-by", _): addBlockers.append(value)
                case ("--unblock", _): removeBlockers.append(value)
                case ("--priority", _):
                    if clears {
                        priority = .some(nil)
                    } else if let level = TodoPriority(parsing: value) {
                        priority = level
                    } else {
                        throw .badPriority(value)
                    }
                case ("--tag", _): addTags.append(try TodoTags.validated(value))
                case ("--untag", _): removeTags.append(try TodoTags.validated(value))
                case ("--note", _): note = clears ? .some(nil) : .some(value)
                case ("--count", _):
                    guard let number = Int(value), (1...RecurrenceRule.largestCount).contains(number) else { throw .badRepeat("\(value) times") }
                    count = number
                default:
                    if clears {
                        recurrence = .some(nil)
                    } else if !valueToken.quoted, let (parsed, count) = Self.longestRepeat(value, tokens) {
                        // No shell here either: `--repeat monthly on the last friday` takes as many words as make one repeat.
                        recurrence = parsed
                        tokens = tokens.dropFirst(count - 1)
                    } else {
                        recurrence = try TodoRepeat(typed: value)
                    }
                }
            }
            repeatCount = count
        } catch {
            throw .invalidField(error)
        }
        text = words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The longest run of words from `first` on (at most eight, none an
    /// option or quoted) that reads as a repeat, and how many words it took.
    static func longestRepeat(_ first: String, _ tokens: ArraySlice<Token>) -> (TodoRepeat, Int)? {
        let words = [first] + tokens.prefix { !$0.isOption && !$0.quoted }.prefix(7).map(\.text)
        for count in stride(from: words.count, through: 1, by: -1) {
            if let parsed = try? TodoRepeat(typed: words.prefix(count).joined(separator: " ")) { return (parsed, count) }
        }
        return nil
    }

    /// The date options a line may hold, as the command line names them, by field.
    static let dateOptions = Dictionary(uniqueKeysWithValues: TodoField.datesWithOptions.map { ("--" + $0.key, $0) })

    /// The options a line may hold: those of `todo add` and `todo edit`
    /// that take a value.
    static let lineOptions = Set(dateOptions.keys).union([
        "--priority", "--tag", "--untag", "--note", "--repeat", "--count", "--project", "--parent", "--blocked-by", "--unblock",
    ])

    /// A word of a line, or a "quoted run" of words (`QuotedWords`).
    struct Token {
        var text: String
        var quoted: Bool
        var isOption: Bool { !quoted && TodoEdit.lineOptions.contains(text) }
    }

    /// The line's words: runs of non-spaces, or of anything between double quotes.
    static func tokens(_ line: String) -> [Token] {
        QuotedWords.read(line).map { Token(text: $0.text, quoted: $0.quoted) }
    }
}
