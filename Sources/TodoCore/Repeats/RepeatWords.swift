import Foundation

/// Repeats in words, both ways: what people type after `--repeat` (and
/// `repeat:` in the view and MCP), and how `todo show`, lists and the view
/// say a repeat. Every phrase `words` writes, `read` reads back.
///
/// - `weekdays`, `weekends`, `mon,wed,fri` (or `monday and friday`)
/// - `every day`, `every 3 days`, `every other week`, `every 2 weeks on mon,fri`
/// - `biweekly`, `fortnightly`, `quarterly`, `semiannually`
/// - `monthly on the 15th`, `monthly on the 1st and 15th`, `monthly on the last day`,
///   `monthly on the last friday`, `every 3 months on the 2nd tuesday`,
///   `monthly on the last weekday`, `monthly on the first weekday`
/// - `yearly on dec 24`, `yearly in march`
/// - after any of them: `, 10 times`, `, until 2027-06-30`, `, except 2026-12-24 2026-12-31`,
///   and `from completion` (counted from the day it is done); `!` for the strict chain.
///
/// A rule the words cannot say is written as its RRULE, which `TodoRepeat`
/// reads too.
public enum RepeatWords {
    /// How to write a repeat, in a sentence (the field table's, MCP's schema).
    public static let summary = "In words: daily, weekly, 3d, 2w, weekdays, mon,fri, every 2 weeks, monthly on the last friday, "
        + "monthly on the 15th, yearly on dec 24; after it ', 10 times', ', until 2027-06-30', ', except 2026-12-24', "
        + "' from completion' (counted from the day it is done) or '!' (every occurrence, overdue ones too); or an RRULE "
        + "(FREQ=MONTHLY;BYDAY=2TU)."

    /// The repeat `text` says in words, or nil.
    public static func read(_ text: String) -> TodoRepeat? {
        var text = text.lowercased().trimmingCharacters(in: .whitespaces)
        var anchor = TodoRepeat.Anchor.due
        if text.hasSuffix("!") {
            anchor = .strict
            text.removeLast()
        }
        for suffix in [" from completion", " after completion", " from done"] where text.hasSuffix(suffix) {
            anchor = .completion
            text.removeLast(suffix.count)
        }
        // The series' end and its exceptions, after commas.
        var clauses = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var end: RecurrenceRule.End?
        var exceptions: [CalendarDay] = []
        while clauses.count > 1, let last = clauses.last {
            let words = last.split(separator: " ").map(String.init)
            if words.count == 2, words[1] == "times" || words[1] == "time", let count = Int(words[0]),
               (1...RecurrenceRule.largestCount).contains(count), end == nil {
                end = .count(count)
            } else if words.count == 2, words[0] == "until", let day = CalendarDay(parsing: words[1]), end == nil {
                end = .until(.day(day))
            } else if words.count >= 2, words[0] == "except" {
                let days = words.dropFirst().compactMap { CalendarDay(parsing: $0) }
                guard days.count == words.count - 1 else { return nil }
                exceptions += days
            } else {
                break
            }
            clauses.removeLast()
        }
        guard var rule = Self.rule(clauses.joined(separator: " , ")) else { return nil }
        if let end {
            guard rule.end == nil else { return nil }
            rule.end = end
        }
        return TodoRepeat(rule: rule, anchor: anchor, exceptions: exceptions)
    }

    /// The rule of a phrase without its end, exceptions or anchor.
    static func rule(_ phrase: String) -> RecurrenceRule? {
        if let short = TodoRepeat.short(phrase), short.anchor == .due { return short.rule }
        let words = phrase.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init).filter { !filler.contains($0) }
        guard let first = words.first else { return nil }
        var rest = words.dropFirst()
        var rule: RecurrenceRule
        switch first {
        case "weekdays": return rest.isEmpty ? RecurrenceRule(.weekly, byDay: (1...5).map { .init($0) }) : nil
        case "weekends": return rest.isEmpty ? RecurrenceRule(.weekly, byDay: [.init(6), .init(7)]) : nil
        case "daily", "weekly", "monthly", "yearly", "annually":
            rule = RecurrenceRule(Self.frequencies[first]!)
        case "biweekly", "fortnightly": rule = RecurrenceRule(.weekly, interval: 2)
        case "quarterly": rule = RecurrenceRule(.monthly, interval: 3)
        case "semiannually", "semiannual", "biannually": rule = RecurrenceRule(.monthly, interval: 6)
        case "every", "each":
            var interval = 1
            if let count = rest.first.flatMap(Int.init) {
                interval = count
                rest = rest.dropFirst()
            } else if rest.first == "other" {
                interval = 2
                rest = rest.dropFirst()
            }
            guard (1...RecurrenceRule.longestInterval).contains(interval), let unit = rest.popFirst(),
                  let frequency = Self.units[unit] else {
                // `every monday`, `every mon and thu`.
                return interval == 1 ? weekdays(Array(words.dropFirst())).map { RecurrenceRule(.weekly, byDay: $0) } : nil
            }
            rule = RecurrenceRule(frequency, interval: interval)
        default:
            // `mon,wed,fri`
            return weekdays(words).map { RecurrenceRule(.weekly, byDay: $0) }
        }
        guard !rest.isEmpty else { return rule }
        let spec = Array(rest)
        switch rule.frequency {
        case .daily:
            return nil
        case .weekly:
            guard let days = weekdays(spec) else { return nil }
            rule.byDay = days
        case .monthly:
            guard let filled = monthly(spec, into: rule) else { return nil }
            rule = filled
        case .yearly:
            guard let filled = yearly(spec, into: rule) else { return nil }
            rule = filled
        }
        return rule
    }

    /// Words that carry no meaning here: `monthly on the 15th`.
    static let filler: Set<String> = ["on", "the", "and", "of", "at"]

    static let frequencies: [String: RecurrenceRule.Frequency] = [
        "daily": .daily, "weekly": .weekly, "monthly": .monthly, "yearly": .yearly, "annually": .yearly,
    ]

    static let units: [String: RecurrenceRule.Frequency] = [
        "day": .daily, "days": .daily, "week": .weekly, "weeks": .weekly,
        "month": .monthly, "months": .monthly, "year": .yearly, "years": .yearly,
    ]

    static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]

    /// `mon`, `monday`, `tues`, `thurs`…: 1 Monday … 7 Sunday.
    static func weekday(_ word: String) -> Int? {
        let word = word.hasSuffix("s") && word.count > 4 && weekdayNames.contains(String(word.dropLast())) ? String(word.dropLast()) : word
        guard word.count >= 2 else { return nil }
        if let index = weekdayNames.firstIndex(where: { $0.hasPrefix(word) && (word.count >= 3 || ["mo", "tu", "we", "th", "fr", "sa", "su"].contains(word)) }) {
            return index + 1
        }
        return nil
    }

    static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    static func weekdays(_ words: [String]) -> [RecurrenceRule.Weekday]? {
        guard !words.isEmpty else { return nil }
        var days: [Int] = []
        for word in words {
            guard let day = weekday(word) else { return nil }
            if !days.contains(day) { days.append(day) }
        }
        return days.sorted().map { .init($0) }
    }

    /// `1st`, `2nd`, `15th`, `15`; `last` is -1; `first`…`fifth`.
    static func ordinal(_ word: String) -> Int? {
        if let index = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: word) { return index + 1 }
        if word == "last" { return -1 }
        var digits = word
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits.removeLast(2) }
        return Int(digits)
    }

    /// `the 15th`, `the 1st and 15th`, `the last day`, `the last friday`,
    /// `the 2nd tuesday`, `the last weekday`.
    static func monthly(_ words: [String], into rule: RecurrenceRule) -> RecurrenceRule? {
        var rule = rule
        if words.count == 2, let position = ordinal(words[0]), words[1] == "weekday", position == 1 || position == -1 {
            rule.byDay = (1...5).map { .init($0) }
            rule.bySetPosition = [position]
            return rule
        }
        if words.count == 2, let position = ordinal(words[0]), (1...5).contains(abs(position)), let day = weekday(words[1]) {
            rule.byDay = [.init(day, ordinal: position)]
            return rule
        }
        if words.count == 2, words[0] == "last", words[1] == "day" {
            rule.byMonthDay = [-1]
            return rule
        }
        var days: [Int] = []
        for word in words {
            guard let day = ordinal(word), (1...31).contains(day) else { return nil }
            days.append(day)
        }
        rule.byMonthDay = days
        return days.isEmpty ? nil : rule
    }

    /// `dec 24`, `24 dec`, `in march`.
    static func yearly(_ words: [String], into rule: RecurrenceRule) -> RecurrenceRule? {
        var rule = rule
        let words = words.filter { $0 != "in" }
        if words.count == 1, let month = month(words[0]) {
            rule.byMonth = [month]
            return rule
        }
        guard words.count == 2 else { return nil }
        let (monthWord, dayWord) = month(words[0]) != nil ? (words[0], words[1]) : (words[1], words[0])
        guard let month = month(monthWord), let day = ordinal(dayWord), (1...CalendarDay.daysIn(month: month, year: 2000)).contains(day) else { return nil }
        rule.byMonth = [month]
        rule.byMonthDay = [day]
        return rule
    }
}

extension TodoRepeat {
    /// This repeat ending after `count` occurrences (this one counted) and
    /// counted from `anchor`, where they are given; a kept rule is not
    /// ours to change.
    public func with(count: Int?, anchor: Anchor?) throws(TodoFieldError) -> TodoRepeat {
        guard var rule else { throw .repeatNotFollowed(description) }
        if let count { rule.end = .count(count) }
        return TodoRepeat(rule: rule, anchor: anchor ?? self.anchor, exceptions: exceptions)
    }

    /// The repeat in words (`RepeatWords`): what `todo show` and the view print.
    public var words: String { RepeatWords.words(self) }

    /// What completing a todo that repeats by a kept rule does, in words
    /// every front end can show; nil for a rule followed here.
    public var completingKept: String? {
        guard kept != nil else { return nil }
        return "its repeat is a rule kept from the server (\(RepeatWords.keptRule(self))): completing it here completes this occurrence, "
            + "and the app that wrote the rule makes the next"
    }
}
