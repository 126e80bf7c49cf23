import Foundation

// How `todo show` and the view say a repeat: the phrases `RepeatWords.read` reads back.

extension RepeatWords {
    /// `repeat` in words, as `read` reads them; its RRULE where words
    /// cannot say it; for a kept rule, that it is kept, and the rule.
    public static func words(_ repeating: TodoRepeat) -> String {
        guard var rule = repeating.rule else { return "rule kept from the server: " + keptRule(repeating) }
        let end = rule.end
        rule.end = nil
        guard var text = phrase(rule) else { return repeating.description }
        switch end {
        case let .count(count): text += ", \(count) time\(count == 1 ? "" : "s")"
        case let .until(.day(day)): text += ", until \(day)"
        case .until: return repeating.description
        case nil: break
        }
        if !repeating.exceptions.isEmpty {
            text += ", except " + repeating.exceptions.map(\.description).joined(separator: " ")
        }
        switch repeating.anchor {
        case .due: return text
        case .strict: return text + "!"
        case .completion: return text + " from completion"
        }
    }

    /// A kept rule as it came: its RRULE, and its RDATE values.
    static func keptRule(_ repeating: TodoRepeat) -> String {
        [repeating.keptRRule, repeating.keptDates.map { "RDATE " + $0 }].compactMap(\.self).joined(separator: " and ")
    }

    /// The phrase of a rule without an end, or nil when words cannot say it.
    static func phrase(_ rule: RecurrenceRule) -> String? {
        guard rule.weekStart == 1 else { return nil }
        if rule.isPlain { return TodoRepeat(rule: rule).shortForm }
        let every = rule.interval == 1 ? nil : "every \(rule.interval) "
        let plainDays = rule.byDay.allSatisfy { $0.ordinal == nil }
        switch rule.frequency {
        case .daily:
            return nil
        case .weekly:
            guard rule.byMonth.isEmpty, rule.byMonthDay.isEmpty, rule.bySetPosition.isEmpty, plainDays, !rule.byDay.isEmpty else { return nil }
            let days = rule.byDay.map(\.weekday)
            if rule.interval == 1 {
                if days == [1, 2, 3, 4, 5] { return "weekdays" }
                if days == [6, 7] { return "weekends" }
                return days.map(shortWeekday).joined(separator: ",")
            }
            return "every \(rule.interval) weeks on " + days.map(shortWeekday).joined(separator: ",")
        case .monthly:
            guard rule.byMonth.isEmpty else { return nil }
            let head = every.map { $0 + "months on the " } ?? "monthly on the "
            if rule.byDay.map(\.weekday) == [1, 2, 3, 4, 5], plainDays, rule.byMonthDay.isEmpty, rule.bySetPosition == [1] || rule.bySetPosition == [-1] {
                return head + (rule.bySetPosition == [1] ? "first" : "last") + " weekday"
            }
            guard rule.bySetPosition.isEmpty else { return nil }
            if rule.byDay.count == 1, let ordinal = rule.byDay[0].ordinal, rule.byMonthDay.isEmpty, (-1...5).contains(ordinal), ordinal != 0 {
                return head + ordinalWord(ordinal) + " " + weekdayNames[rule.byDay[0].weekday - 1]
            }
            guard rule.byDay.isEmpty, !rule.byMonthDay.isEmpty else { return nil }
            if rule.byMonthDay == [-1] { return head + "last day" }
            guard rule.byMonthDay.allSatisfy({ $0 > 0 }) else { return nil }
            return head + rule.byMonthDay.map(ordinalWord).joined(separator: " and ")
        case .yearly:
            guard rule.byDay.isEmpty, rule.bySetPosition.isEmpty, rule.byMonth.count == 1 else { return nil }
            let head = every.map { $0 + "years " } ?? "yearly "
            let month = String(monthNames[rule.byMonth[0] - 1].prefix(3))
            if rule.byMonthDay.isEmpty { return head + "in " + monthNames[rule.byMonth[0] - 1] }
            guard rule.byMonthDay.count == 1, rule.byMonthDay[0] > 0 else { return nil }
            return head + "on \(month) \(rule.byMonthDay[0])"
        }
    }

    static func shortWeekday(_ day: Int) -> String { String(weekdayNames[day - 1].prefix(3)) }

    static func ordinalWord(_ number: Int) -> String {
        if number == -1 { return "last" }
        let suffix = switch number % 100 {
        case 11, 12, 13: "th"
        default:
            switch number % 10 {
            case 1: "st"
            case 2: "nd"
            case 3: "rd"
            default: "th"
            }
        }
        return "\(number)\(suffix)"
    }
}
