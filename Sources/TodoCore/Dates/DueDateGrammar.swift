import Foundation

/// The one grammar of due dates, for `--due` and wherever a person types one.
///
/// Words name calendar days, counted from today in the given time zone:
///
/// - `today`, `tomorrow`, `yesterday`
/// - a weekday, `mon` … `sun` or `monday` … `sunday`, or `next fri`: the next
///   such day after today (on a Friday, `fri` is a week later)
/// - `+3d`, `+2w`, `+1m`, `+1y`, and `in 3 days`, `in 2 weeks`, `in a month`:
///   days, weeks, months or years from today; a month or a year keeps the day
///   of the month, or takes the month's last day when it is shorter (31
///   January `+1m` is 28 or 29 February)
/// - `-1d`, `1d ago`, `3 days ago`: days (weeks, months, years) before today
/// - `next week` (its Monday), `next month` (its first day), `next year` (1 January)
/// - `dec 24`, `24 dec`, `december 24th`: the next 24 December, today included
/// - Taskwarrior's names: `sod`, `eod` (today), `sow`, `eow` (this ISO
///   week's Monday, Sunday), `sonw`, `eonw` (next week's), `som`, `eom`,
///   `soq`, `eoq`, `soy`, `eoy` (the first and last day of this month,
///   quarter, year), and in words `end of month`, `start of week`…;
///   `someday` (or `later`), its far future, 30 December 9999
/// - `2026-12-01`: that date
/// - `now`: this moment, to the second (Taskwarrior's `start:now`)
///
/// All of these but `now` give a `.day`, which stays that date in every time zone.
/// Any of them followed by a time of day (`tomorrow 5pm`, `fri 09:30`,
/// `dec 24 18:00`, `friday at 5pm`, `2026-12-01 14:30`), or `2026-12-01T14:30` (or
/// `T14:30:15`), is a time on the local clock of the given zone and gives the
/// `.moment` it names. A time a clock change skips (02:30 on the night
/// clocks go forward) is read as the same time after the change (03:30); a
/// time that happens twice (the night clocks go back) is its first
/// occurrence. A time with its zone, as JSON shows a due
/// (`2026-12-01T13:30:00.000Z`), is read as that moment. A word mistyped
/// (`next tuseday`) is refused with the nearest form that reads.
public enum DueDateGrammar {
    /// Reads `text` as a due date at `now` in `timeZone`; case and spaces do not matter.
    public static func parse(_ text: String, now: Date, in timeZone: TimeZone) throws(TodoFieldError) -> TodoDue {
        if let due = read(text, now: now, in: timeZone) { return due }
        throw .badDue(text, suggestion: suggestion(for: text, now: now, in: timeZone))
    }

    /// The longest run of `words`, from the first, that reads as a due date
    /// (at most five words), and how many words it took; for a line typed
    /// in a view, where `--due next week` needs no quotes. When none reads,
    /// the error names the longest run with a mistyped word, if one has.
    public static func parseLongestPrefix(of words: [String], now: Date, in timeZone: TimeZone) throws(TodoFieldError) -> (due: TodoDue, count: Int) {
        let counts = stride(from: min(words.count, 5), through: 1, by: -1)
        for count in counts {
            if let due = read(words.prefix(count).joined(separator: " "), now: now, in: timeZone) { return (due, count) }
        }
        for count in counts {
            let text = words.prefix(count).joined(separator: " ")
            if let suggestion = suggestion(for: text, now: now, in: timeZone) { throw .badDue(text, suggestion: suggestion) }
        }
        throw .badDue(words.first ?? "", suggestion: nil)
    }

    static func read(_ text: String, now: Date, in timeZone: TimeZone) -> TodoDue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let words = trimmed.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        let today = CalendarDay(now, in: timeZone)
        if let day = day(words[...], today: today) {
            return .day(day)
        }
        // Taskwarrior's `now` (start:now): this moment, to the second.
        if words == ["now"] { return .moment(now.wholeSecond) }
        if words.count == 1, let moment = localMoment(words[0], in: timeZone) {
            return .moment(moment)
        }
        // A day, then a time of day on its local clock (`friday at 5pm`).
        let dayWords = words.count >= 3 && words[words.count - 2] == "at" ? words.dropLast(2) : words.dropLast()
        if words.count >= 2, let (hour, minute) = timeOfDay(words[words.count - 1]), let day = day(dayWords, today: today) {
            let local = day.daysSince1970 * 86_400 + hour * 3_600 + minute * 60
            return .moment(Date(timeIntervalSince1970: Double(instant(ofLocalSeconds: local, in: timeZone))))
        }
        // The stored and JSON form, or any ISO 8601 time with its zone: what `todo show --json` printed.
        if words.count == 1, trimmed.count > 19, let moment = ISO8601.date(from: trimmed) {
            return .moment(moment)
        }
        return nil
    }

    /// The day `words` name, counted from `today`; nil if they name none.
    static func day(_ words: ArraySlice<String>, today: CalendarDay) -> CalendarDay? {
        let words = Array(words)
        switch words.count {
        case 1:
            return relativeDay(words[0], today: today) ?? CalendarDay(parsing: words[0])
        case 2:
            if words[0] == "next" {
                switch words[1] {
                case "week": return today.adding(days: 8 - today.weekday)
                case "month": return CalendarDay(year: today.year, month: today.month, day: 1)?.adding(months: 1)
                case "year": return CalendarDay(year: today.year + 1, month: 1, day: 1)
                default: return weekday(words[1], after: today)
                }
            }
            if words[1] == "ago", let (count, unit) = amount(words[0]) { return offset(-count, unit, from: today) }
            return monthDay(words[0], words[1], from: today) ?? monthDay(words[1], words[0], from: today)
        case 3:
            // `end of month`, `start of week`: Taskwarrior's eom and sow, in words.
            if words[1] == "of", let edge = ["start": "so", "end": "eo"][words[0]],
               let span = ["day": "d", "week": "w", "month": "m", "quarter": "q", "year": "y"][words[2]] {
                return relativeDay(edge + span, today: today)
            }
            if words[0] == "in", let count = number(words[1]), let unit = unit(words[2]) { return offset(count, unit, from: today) }
            if words[2] == "ago", let count = number(words[0]), let unit = unit(words[1]) { return offset(-count, unit, from: today) }
            return nil
        default:
            return nil
        }
    }

    /// The day a word names, counted from `today`; nil if it names none.
    static func relativeDay(_ word: String, today: CalendarDay) -> CalendarDay? {
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "sod", "eod": return today
        case "sow": return today.adding(days: 1 - today.weekday)
        case "eow": return today.adding(days: 7 - today.weekday)
        case "sonw": return today.adding(days: 8 - today.weekday)
        case "eonw": return today.adding(days: 14 - today.weekday)
        case "som": return CalendarDay(year: today.year, month: today.month, day: 1)
        case "eom": return today.endOfMonth
        case "soq": return CalendarDay(year: today.year, month: (today.month - 1) / 3 * 3 + 1, day: 1)
        case "eoq": return CalendarDay(year: today.year, month: (today.month - 1) / 3 * 3 + 3, day: 1)?.endOfMonth
        case "soy": return CalendarDay(year: today.year, month: 1, day: 1)
        case "eoy": return CalendarDay(year: today.year, month: 12, day: 31)
        // Taskwarrior's far future: a date no plan reaches.
        case "someday", "later": return CalendarDay(year: 9999, month: 12, day: 30)
        default: break
        }
        if let day = weekday(word, after: today) { return day }
        if word.hasPrefix("-"), let (count, unit) = amount(String(word.dropFirst())) { return offset(-count, unit, from: today) }
        return offset(word, from: today)
    }

    /// The next day after `today` that is the weekday `word` names.
    static func weekday(_ word: String, after today: CalendarDay) -> CalendarDay? {
        guard let weekday = weekdays.firstIndex(where: { $0.contains(word) }) else { return nil }
        // 1 Monday … 7 Sunday; the same weekday as today is a week away.
        let ahead = (weekday + 1 - today.weekday + 7) % 7
        return today.adding(days: ahead == 0 ? 7 : ahead)
    }

    /// The names of each month, January first.
    static let months: [[String]] = [
        ["jan", "january"], ["feb", "february"], ["mar", "march"], ["apr", "april"], ["may"], ["jun", "june"],
        ["jul", "july"], ["aug", "august"], ["sep", "sept", "september"], ["oct", "october"], ["nov", "november"],
        ["dec", "december"],
    ]

    /// `dec` `24` (or `24th`): the next such date, today included; a 29
    /// February the next year that has one.
    static func monthDay(_ monthWord: String, _ dayWord: String, from today: CalendarDay) -> CalendarDay? {
        guard let month = months.firstIndex(where: { $0.contains(monthWord) }).map({ $0 + 1 }) else { return nil }
        var digits = Substring(dayWord)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(2)
        }
        guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let dayNumber = Int(digits),
              (1...31).contains(dayNumber) else { return nil }
        for year in today.year...(today.year + 8) {
            if let day = CalendarDay(year: year, month: month, day: dayNumber), day >= today { return day }
        }
        return nil
    }

    /// A count of days, weeks, months or years in digits and a letter: `3d`, `2w`.
    static func amount(_ word: String) -> (Int, Character)? {
        guard word.count >= 2, let unit = word.last, "dwmy".contains(unit), let count = digits(String(word.dropLast())) else { return nil }
        return (count, unit)
    }

    /// A count in words: digits, or `a` / `an` (`in a week`).
    static func number(_ word: String) -> Int? {
        word == "a" || word == "an" ? 1 : digits(word)
    }

    /// A count written in ASCII digits, at most `longestOffset`.
    static func digits(_ word: String) -> Int? {
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(word), count <= longestOffset else { return nil }
        return count
    }

    /// `day`, `days`, `week` …: its letter.
    static func unit(_ word: String) -> Character? {
        switch word {
        case "day", "days": "d"
        case "week", "weeks": "w"
        case "month", "months": "m"
        case "year", "years": "y"
        default: nil
        }
    }

    /// A time of day: `17:30`, `9:30`, `5pm`, `5:30pm`, `12am` (midnight), `noon`, `midnight`.
    static func timeOfDay(_ word: String) -> (hour: Int, minute: Int)? {
        switch word {
        case "noon": return (12, 0)
        case "midnight": return (0, 0)
        default: break
        }
        var text = Substring(word)
        var meridiem: String?
        for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix
            text = text.dropLast(2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var hour = Int(parts[0]) else { return nil }
        let minute = parts.count == 2 ? Int(parts[1]) ?? 60 : 0
        if parts.count == 2, parts[1].count != 2 { return nil }
        guard minute < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        } else {
            // A bare number is no time (`dec 24` is a date): a time has a colon or am/pm.
            guard parts.count == 2, hour < 24 else { return nil }
        }
        return (hour, minute)
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
        guard word.hasPrefix("+"), let (count, unit) = amount(String(word.dropFirst())) else { return nil }
        return offset(count, unit, from: today)
    }

    /// `count` days (`d`), weeks, months or years from `today` (before it
    /// when negative); nil past year 9999 or before year 1.
    static func offset(_ count: Int, _ unit: Character, from today: CalendarDay) -> CalendarDay? {
        let day: CalendarDay
        switch unit {
        case "d": day = today.adding(days: count)
        case "w": day = today.adding(days: 7 * count)
        case "m": day = today.adding(months: count)
        case "y": day = today.adding(months: 12 * count)
        default: return nil
        }
        return (1...9999).contains(day.year) ? day : nil
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
