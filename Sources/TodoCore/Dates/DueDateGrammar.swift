import Foundation

/// The one grammar of due dates, for `--due` and wherever a person types one.
///
/// Words name calendar days, counted from today in the given time zone:
///
/// - `today`, `tomorrow`, `yesterday`
/// - a weekday, `mon` … `sun` or `monday` … `sunday`: the next such day after
///   today (on a Friday, `fri` is a week later)
/// - `+3d`, `+2w`, `+1m`, `+1y`: days, weeks, months or years from today; a
///   month or a year keeps the day of the month, or takes the month's last
///   day when it is shorter (31 January `+1m` is 28 or 29 February)
/// - `eow`: the end of this ISO week, its Sunday (today on a Sunday)
/// - `eom`: the last day of this month
/// - `2026-12-01`: that date
///
/// All of these give a `.day`, which stays that date in every time zone.
/// `2026-12-01T14:30` (or `T14:30:15`) is a time on the local clock of the
/// given zone and gives the `.moment` it names. A time a clock change skips
/// (02:30 on the night clocks go forward) is read as the same time after
/// the change (03:30); a time that happens twice (the night clocks go back)
/// is its first occurrence. A time with its zone, as JSON shows a due
/// (`2026-12-01T13:30:00.000Z`), is read as that moment.
public enum DueDateGrammar {
    /// Reads `text` as a due date at `now` in `timeZone`; case and surrounding
    /// spaces do not matter.
    public static func parse(_ text: String, now: Date, in timeZone: TimeZone) throws(TodoFieldError) -> TodoDue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let word = trimmed.lowercased()
        let today = CalendarDay(now, in: timeZone)
        if let day = relativeDay(word, today: today) ?? CalendarDay(parsing: word) {
            return .day(day)
        }
        if let moment = localMoment(word, in: timeZone) {
            return .moment(moment)
        }
        // The stored and JSON form, or any ISO 8601 time with its zone: what `todo show --json` printed.
        if trimmed.count > 19, let moment = ISO8601.date(from: trimmed) {
            return .moment(moment)
        }
        throw .badDue(text)
    }

    /// The day a word names, counted from `today`; nil if it names none.
    static func relativeDay(_ word: String, today: CalendarDay) -> CalendarDay? {
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "eow": return today.adding(days: 7 - today.weekday)
        case "eom": return today.endOfMonth
        default: break
        }
        if let weekday = weekdays.firstIndex(where: { $0.contains(word) }) {
            // 1 Monday … 7 Sunday; the same weekday as today is a week away.
            let ahead = (weekday + 1 - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return offset(word, from: today)
    }

    /// The names of each weekday, Monday first.
    static let weekdays: [[String]] = [
        ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "wednesday"], ["thu", "thur", "thurs", "thursday"],
        ["fri", "friday"], ["sat", "saturday"], ["sun", "sunday"],
    ]

    /// The most a `+N` offset counts: more than 27 years of days, which is far enough.
    static let longestOffset = 9_999

    /// `+3d`, `+2w`, `+1m`, `+1y` from `today`; nil for anything else or a day past year 9999.
    static func offset(_ word: String, from today: CalendarDay) -> CalendarDay? {
        guard word.hasPrefix("+"), word.count >= 3, let unit = word.last else { return nil }
        let digits = word.dropFirst().dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits), count <= longestOffset else {
            return nil
        }
        let day: CalendarDay
        switch unit {
        case "d": day = today.adding(days: count)
        case "w": day = today.adding(days: 7 * count)
        case "m": day = today.adding(months: count)
        case "y": day = today.adding(months: 12 * count)
        default: return nil
        }
        return day.year <= 9999 ? day : nil
    }

    /// `2026-12-01T14:30` or `2026-12-01T14:30:15` on the clock of `timeZone`;
    /// nil for anything else.
    static func localMoment(_ word: String, in timeZone: TimeZone) -> Date? {
        let bytes = Array(word.utf8)
        guard bytes.count == 16 || bytes.count == 19, bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
              bytes.count == 16 || bytes[16] == UInt8(ascii: ":"),
              let day = CalendarDay(parsing: word.prefix(10)) else { return nil }
        func number(_ start: Int) -> Int? {
            let pair = bytes[start..<start + 2]
            guard pair.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return pair.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard let hour = number(11), let minute = number(14), hour < 24, minute < 60 else { return nil }
        let second = bytes.count == 19 ? number(17) : 0
        guard let second, second < 60 else { return nil }
        let local = day.daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(instant(ofLocalSeconds: local, in: timeZone)))
    }

    /// The instant (seconds since 1970) a local clock reading names in
    /// `timeZone`: its first occurrence when the clock shows it twice, and
    /// the reading moved forward by the skipped time when the clock skips it.
    static func instant(ofLocalSeconds local: Int, in timeZone: TimeZone) -> Int {
        // The zone's offsets a day either side bound every offset the reading can have.
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local - 86_400)))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local + 86_400)))
        let candidates = [before, after].map { local - $0 }.filter { instant in
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) == local - instant
        }
        // None fits: the clock skips this reading; the offset before the change moves it past the gap.
        return candidates.min() ?? local - before
    }
}

// MARK: - Filters

/// Which due dates `todo list --due` keeps.
public enum DueFilter: Sendable, Hashable {
    /// Overdue at `now`: due on a day before `now`'s date in `timeZone`, or at a moment before `now`.
    case overdue(now: Date, timeZone: TimeZone)
    /// Due on one of `days`: a day among them, or a moment that falls on one of them in `timeZone`.
    case within(ClosedRange<CalendarDay>, timeZone: TimeZone)

    /// Reads `overdue`, `today`, `tomorrow`, `week` (today through this ISO
    /// week's Sunday) or any date of `DueDateGrammar` (due on that date).
    public init(parsing text: String, now: Date, in timeZone: TimeZone) throws(TodoFieldError) {
        let today = CalendarDay(now, in: timeZone)
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "overdue":
            // To the millisecond, as storage keeps moments, so storage and the selector agree.
            self = .overdue(now: now.roundedToMilliseconds, timeZone: timeZone)
        case "week":
            self = .within(today...today.adding(days: 7 - today.weekday), timeZone: timeZone)
        default:
            let day = try DueDateGrammar.parse(text, now: now, in: timeZone).day(in: timeZone)
            self = .within(day...day, timeZone: timeZone)
        }
    }

    /// Whether a todo due at `due` passes; a todo with no due date never does.
    public func includes(_ due: TodoDue?) -> Bool {
        guard let due else { return false }
        switch self {
        case let .overdue(now, timeZone): return due.isOverdue(now: now, in: timeZone)
        case let .within(days, timeZone): return days.contains(due.day(in: timeZone))
        }
    }
}
