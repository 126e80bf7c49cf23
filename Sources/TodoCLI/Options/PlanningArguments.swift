import ArgumentParser
import Foundation
import TodoCore

/// `--priority`'s values: `high`, `medium`, `low` (or `h`, `m`, `l`), and
/// `none` for no priority (for `list`, the todos with none).
enum PriorityArgument: Equatable, Sendable, ExpressibleByArgument {
    case level(TodoPriority)
    case cleared

    init?(argument: String) {
        if argument.lowercased() == PlanningArguments.none {
            self = .cleared
        } else if let priority = TodoPriority(parsing: argument) {
            self = .level(priority)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { TodoPriority.allCases.map(\.rawValue) + ["none"] }

    var priority: TodoPriority? {
        switch self {
        case let .level(priority): priority
        case .cleared: nil
        }
    }

    /// As `list --priority` reads it: that level, or (`none`) no priority set.
    var filter: TodoRequest.PriorityFilter {
        switch self {
        case let .level(priority): .level(priority)
        case .cleared: .unset
        }
    }
}

/// `list --sort`'s values.
enum SortArgument: String, CaseIterable, Sendable, ExpressibleByArgument {
    case created, due, priority

    var sort: TodoRequest.Sort {
        switch self {
        case .created: .created
        case .due: .due
        case .priority: .priority
        }
    }
}

/// The planning fields of `add` and `edit` as typed, read into a `TodoEdit`
/// when the command runs (a due date needs the clock): by both the commands
/// and `QuickInvocation`, so both say the same about a bad value.
struct PlanningArguments: Equatable, Sendable {
    var due: String?
    var priority: PriorityArgument?
    var tags: [String] = []
    var untags: [String] = []
    var note: String?
    var recurrence: String?
    /// `--count` and `--from-completion`: details of the repeat given.
    var repeatCount: Int?
    var fromCompletion = false
    /// The project, the plan's dates, the parent and the blockers.
    var plan = PlanValues()
    /// `--unblock`: IDs (or prefixes).
    var unblock: [String] = []

    /// The word that clears a field.
    static let none = "none"

    /// The edit these arguments ask for, with dates read at `now` in
    /// `timeZone`; `none` clears a field (on a new todo: leaves it empty).
    func edit(text: String?, now: Date, timeZone: TimeZone) throws(TodoError) -> TodoEdit {
        var edit = TodoEdit(text: text, addTags: tags, removeTags: untags, addBlockers: plan.blockedBy, removeBlockers: unblock)
        if let parent = plan.parent { edit.parent = parent.lowercased() == Self.none ? .some(nil) : .some(parent) }
        do throws(TodoFieldError) {
            if let due {
                if due.lowercased() == Self.none {
                    edit.due = .some(nil)
                } else {
                    edit.due = try DueDateGrammar.parse(due, now: now, in: timeZone)
                }
            }
            if let priority { edit.priority = .some(priority.priority) }
            if let note {
                edit.note = note.lowercased() == Self.none ? .some(nil) : .some(note)
            }
            if let project = plan.project { edit.project = project.lowercased() == Self.none ? .some(nil) : .some(project) }
            for (field, text) in plan.dates {
                edit[date: field] = try Self.date(text, option: "--\(field.key)", now: now, timeZone: timeZone)
            }
            if let recurrence {
                if recurrence.lowercased() == Self.none {
                    edit.recurrence = .some(nil)
                } else {
                    edit.recurrence = try TodoRepeat(typed: recurrence)
                }
            }
            // Of the repeat given, or of the todo's own.
            edit.repeatCount = repeatCount
            edit.countsFromCompletion = fromCompletion
        } catch {
            throw .invalidField(error)
        }
        return edit
    }

    /// A date of `option` by the due grammar, or (`none`) cleared.
    private static func date(_ text: String, option: String, now: Date, timeZone: TimeZone) throws(TodoFieldError) -> TodoDue?? {
        if text.lowercased() == Self.none { return .some(nil) }
        do {
            return .some(try DueDateGrammar.parse(text, now: now, in: timeZone))
        } catch let .badDue(_, suggestion) {
            throw .badDate(text, option: option, suggestion: suggestion)
        }
    }

    /// Whether any field is given.
    var isEmpty: Bool {
        due == nil && priority == nil && tags.isEmpty && untags.isEmpty && note == nil && recurrence == nil
            && repeatCount == nil && !fromCompletion && plan == PlanValues() && unblock.isEmpty
    }
}

/// The options `add` and `edit` share for what the plan holds: the project,
/// the dates besides the due date, the parent and the blockers.
struct PlanOptions: ParsableArguments {
    @Option(help: ArgumentHelp(DueDateHelp.project + " none for no project.", valueName: "project"))
    var project: String?

    @Option(help: ArgumentHelp("Hide it from lists and the view until this date (list --waiting shows it); none for no wait.", valueName: "date"))
    var wait: String?

    @Option(help: ArgumentHelp("When to start on it: a date, as --due takes; none for no scheduled date.", valueName: "date"))
    var scheduled: String?

    @Option(help: ArgumentHelp("The last date it applies: a repeat makes none after it; unfinished past it, it leaves lists. none for no end.", valueName: "date"))
    var until: String?

    @Option(help: ArgumentHelp("Make it a subtask of this todo (an ID or unique prefix); none makes it a todo of its own.", valueName: "id"))
    var parent: String?

    @Option(help: ArgumentHelp("A todo that must be done first (an ID or unique prefix); give --blocked-by again for more.", valueName: "id"))
    var blockedBy: [String] = []

    /// The values given.
    var values: PlanValues {
        PlanValues(project: project, wait: wait, scheduled: scheduled, until: until, parent: parent, blockedBy: blockedBy)
    }
}

/// The options `add` and `edit` share for the repeat.
struct RepeatOptions: ParsableArguments {
    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("How it repeats, in words (see Repeats below) or as an RRULE; none for no repeat. Needs a due date.", valueName: "repeat")
    )
    var recurrence: String?

    @Option(help: ArgumentHelp("End the repeat (this one's, or the todo's) after this many occurrences, this one counted.", valueName: "n"))
    var count: Int?

    @Flag(help: "Count the repeat's next occurrence from the day it is done, not from its due date.")
    var fromCompletion = false

    func validate() throws {
        if let count, !(1...RecurrenceRule.largestCount).contains(count) {
            throw ValidationError("--count \(count) is out of range: give 1 to \(RecurrenceRule.largestCount) occurrences")
        }
    }
}

/// What `PlanOptions` read, as plain values (a command built by the quick
/// path has no parsed options to read).
struct PlanValues: Equatable, Sendable {
    var project: String?
    var wait: String?
    var scheduled: String?
    var until: String?
    var parent: String?
    var blockedBy: [String] = []

    /// The dates given, by the field each sets.
    var dates: [(TodoField, String)] {
        [(TodoField.wait, wait), (.scheduled, scheduled), (.until, until)].compactMap { field, text in text.map { (field, $0) } }
    }
}

/// The date grammar, once, for every command's help.
enum DueDateHelp {
    static let repeats = """
        Repeats (--repeat): daily, weekly, monthly, yearly, 3d, 2w, 6m, 1y; weekdays, \
        weekends, mon,wed,fri; "every 2 weeks", "every other week on tue,fri"; \
        "monthly on the 15th", "monthly on the last friday", "monthly on the 2nd \
        tuesday", "monthly on the last weekday"; quarterly; "yearly on dec 24". After \
        a rule: ", 10 times" (or --count 10), ", until 2027-06-30", ", except \
        2026-12-24", " from completion" (or --from-completion: the next one counted from \
        the day it is done) or ! (every occurrence, overdue ones too). An RRULE \
        (FREQ=MONTHLY;BYDAY=2TU) is read as well; show prints a rule in these words, or \
        as its RRULE where they cannot say it. A rule todo does not follow (HOURLY, \
        BYHOUR, RDATE) is refused here; one a server sends is kept as it came.
        """
    static let project = "The project: names joined by dots, the widest first (home.garden)."
    static let grammar = """
        Dates (--due): now, today, tomorrow, yesterday; a weekday, mon..sun or \
        monday..sunday (or next fri), meaning the next one after today; +3d, +2w, +1m, \
        +1y or "in 3 days", "in a week" from today (a month later keeps the day, or \
        takes the month's last day); -1d, "1d ago", "3 days ago"; "next week" (its \
        Monday), "next month" (its 1st); "dec 24" or "24 dec", the next one; eow, this \
        week's Sunday; eom, this month's last day; Taskwarrior's sow, som, soq, soy, \
        eoq, eoy, sonw, eonw, sod, eod (or "end of month", "start of week"…) and \
        someday, its far future; 2026-12-01 (12/24 is refused: the order of day and \
        month is not guessed). Any of them with a \
        time ("tomorrow 5pm", "friday at 5pm", "2026-12-01 14:30", or 2026-12-01T14:30) is \
        a time on this machine's clock (its time zone, or $TZ). Quote a date of \
        several words. A date stays that date in every time zone; a time is kept as \
        the moment it names.
        """
}
