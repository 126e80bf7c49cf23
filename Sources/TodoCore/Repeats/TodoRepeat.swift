import Foundation

/// How a todo repeats: a rule (`RecurrenceRule`, RFC 5545's), what its next
/// occurrence is counted from, and the days taken out of it.
///
/// Its text (stored, in JSON, in sync) is the short form where one says it
/// (`daily`, `weekly`, `3d`, `2w!`) and otherwise the RRULE, with our own
/// parts after it: `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`,
/// `FREQ=DAILY;INTERVAL=3;X-TODO-FROM=COMPLETION`. People read and write it
/// in words (`RepeatWords.swift`): `weekdays`, `every 3 days from completion`.
///
/// A rule another app wrote that the engine does not follow (HOURLY,
/// BYHOUR, RDATE, or any rule of a task with no due date) is kept as it
/// came (`kept`): shown, synced and written back unchanged, never followed
/// here. That app makes the next occurrence; completing the todo here
/// completes this one.
public struct TodoRepeat: Sendable, Hashable, CustomStringConvertible {
    /// What the next occurrence is counted from.
    public enum Anchor: Sendable, Hashable {
        /// The due date of the occurrence completed; completed late, the
        /// first occurrence due today or later (a todo weeks overdue is not
        /// followed by one overdue too).
        case due
        /// The due date, every occurrence of the chain, overdue ones too (`weekly!`).
        case strict
        /// The day it was completed (`--from-completion`; todo.txt's `rec:1w`).
        case completion
    }

    /// The rule the engine follows; nil for a rule kept from another app.
    public let rule: RecurrenceRule?
    /// A rule kept from another app, its text as it came (see the type's
    /// summary): the RRULE value, then our parts `X-TODO-RDATE=…` (its RDATE
    /// values) and `X-TODO-KEPT=TRUE` where the engine could read the rule
    /// but the task gave it nothing to follow it from.
    public let kept: String?
    public let anchor: Anchor
    /// Days the series skips (EXDATE), in order.
    public let exceptions: [CalendarDay]

    public init(rule: RecurrenceRule, anchor: Anchor = .due, exceptions: [CalendarDay] = []) {
        self.rule = rule
        self.kept = nil
        self.anchor = anchor
        self.exceptions = Array(Set(exceptions)).sorted()
    }

    /// A rule kept from another app: an RRULE value (any FREQ, any parts)
    /// and our parts after it, at most `longestKept` characters of text
    /// without control characters; nil for anything else.
    public init?(kept raw: String) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard text.count <= Self.longestKept, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let parts = Self.parts(of: text)
        let frequency = parts.first { $0.name == "FREQ" }?.value.uppercased()
        guard frequency.map(Self.frequencies.contains) ?? parts.contains(where: { $0.name == Self.rdatesPart }),
              parts.allSatisfy({ !$0.name.isEmpty && !$0.value.isEmpty }) else { return nil }
        self.rule = nil
        self.kept = text
        self.anchor = .due
        self.exceptions = []
    }

    /// A VTODO's RRULE value and RDATE values, kept as they came (`kept`);
    /// a rule the engine could read is marked, so it reads back kept.
    public static func keeping(_ rrule: String?, dates: String?) -> TodoRepeat? {
        var parts = rrule.map { [$0] } ?? []
        if let dates, !dates.isEmpty { parts.append(rdatesPart + "=" + dates) }
        if dates?.isEmpty ?? true, let rrule, RecurrenceRule(rrule: rrule) != nil { parts.append(keptPart + "=TRUE") }
        return TodoRepeat(kept: parts.joined(separator: ";"))
    }

    /// The longest kept rule: far past any rule an app writes (a few
    /// hundred RDATE values), and a hostile one stays small.
    public static let longestKept = 4_096
    /// The frequencies RFC 5545 names, the ones the engine follows and those it keeps.
    static let frequencies: Set<String> = ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]

    /// A rule's `NAME=value` parts (`NAME` alone: an empty value), names
    /// in capitals, and each part as it was written.
    static func parts(of text: String) -> [(name: String, value: String, written: Substring)] {
        text.split(separator: ";").map { part in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (pair[0].trimmingCharacters(in: .whitespaces).uppercased(), pair.count == 2 ? pair[1].trimmingCharacters(in: .whitespaces) : "", part)
        }
    }

    /// A kept rule's RRULE value, as it came (our parts taken off); nil for RDATE alone.
    public var keptRRule: String? {
        guard let kept else { return nil }
        let rule = Self.parts(of: kept).filter { !Self.keptParts.contains($0.name) }.map(\.written).joined(separator: ";")
        return rule.isEmpty ? nil : rule
    }

    /// A kept rule's RDATE values, as they came.
    public var keptDates: String? {
        kept.flatMap { Self.parts(of: $0).first { $0.name == Self.rdatesPart }?.value }
    }

    /// Every `count` days, weeks, months or years (1 to 9,999).
    public init?(every count: Int, _ frequency: RecurrenceRule.Frequency, anchor: Anchor = .due) {
        guard (1...RecurrenceRule.longestInterval).contains(count) else { return nil }
        self.init(rule: RecurrenceRule(frequency, interval: count), anchor: anchor)
    }

    /// Every occurrence of the chain, overdue ones included (`weekly!`).
    public var strict: Bool { anchor == .strict }

    // MARK: Text

    /// Reads the stored and JSON form (see the type's summary), and what
    /// people type: `RepeatWords` reads words such as `weekdays` or
    /// `monthly on the last friday`. A rule the engine does not follow
    /// reads as kept (`init(kept:)`): what a server holds is never dropped.
    /// Nil for anything else. What a person types goes through
    /// `init(typed:)`, which refuses a kept one.
    public init?(parsing raw: String) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        let capitals = text.uppercased()
        if let short = Self.short(text) {
            self = short
        } else if capitals.contains("FREQ=") || capitals.contains(Self.rdatesPart + "=") {
            let parts = Self.parts(of: text)
            guard !parts.contains(where: { Self.keptParts.contains($0.name) }), let rule = RecurrenceRule(rrule: text) else {
                guard let kept = TodoRepeat(kept: text) else { return nil }
                self = kept
                return
            }
            var anchor = Anchor.due
            var exceptions: [CalendarDay] = []
            for (name, value, _) in parts {
                switch name {
                case Self.fromPart where value.uppercased() == "COMPLETION": anchor = .completion
                case Self.strictPart where value.uppercased() == "TRUE": anchor = .strict
                case Self.exceptionsPart:
                    for item in value.split(separator: ",") {
                        guard let day = Self.compactDay(item) else { return nil }
                        exceptions.append(day)
                    }
                default: break
                }
            }
            self.init(rule: rule, anchor: anchor, exceptions: exceptions)
        } else if let words = RepeatWords.read(text) {
            self = words
        } else {
            return nil
        }
    }

    /// A repeat a person typed: as `init(parsing:)` reads it, but a rule
    /// the engine cannot follow is refused, for no next occurrence would come of it.
    public init(typed text: String) throws(TodoFieldError) {
        guard let read = TodoRepeat(parsing: text) else { throw .badRepeat(text) }
        guard read.rule != nil else { throw .repeatNotFollowed(text) }
        self = read
    }

    /// Our parts of the text form, after the RRULE's.
    static let fromPart = "X-TODO-FROM"
    static let strictPart = "X-TODO-STRICT"
    static let exceptionsPart = "X-TODO-EXDATE"
    static let rdatesPart = "X-TODO-RDATE"
    static let keptPart = "X-TODO-KEPT"
    /// The parts that only a kept rule's text holds.
    static let keptParts: Set<String> = [rdatesPart, keptPart]

    /// `daily`, `weekly`, `monthly`, `yearly` (`annually`), `Nd`, `Nw`, `Nm`,
    /// `Ny`, each with `!` after it for the strict chain.
    static func short(_ raw: String) -> TodoRepeat? {
        var text = raw.lowercased()
        let anchor: Anchor = text.hasSuffix("!") ? .strict : .due
        if anchor == .strict { text.removeLast() }
        switch text {
        case "daily": return TodoRepeat(every: 1, .daily, anchor: anchor)
        case "weekly": return TodoRepeat(every: 1, .weekly, anchor: anchor)
        case "monthly": return TodoRepeat(every: 1, .monthly, anchor: anchor)
        case "yearly", "annually": return TodoRepeat(every: 1, .yearly, anchor: anchor)
        default:
            guard let last = text.last, let frequency = shortUnits[last], text.dropLast().allSatisfy(\.isASCII),
                  let count = Int(text.dropLast()), count <= 999 else { return nil }
            return TodoRepeat(every: count, frequency, anchor: anchor)
        }
    }

    static let shortUnits: [Character: RecurrenceRule.Frequency] = ["d": .daily, "w": .weekly, "m": .monthly, "y": .yearly]

    /// The stored and JSON form: `daily`, `weekly`, `3d`, `2w!` where the
    /// short form says it all, else the RRULE and our parts.
    public var description: String {
        guard let rule else { return kept ?? "" }
        if rule.isPlain, anchor != .completion, exceptions.isEmpty, rule.interval <= 999 {
            return shortForm + (strict ? "!" : "")
        }
        var parts = [rule.rrule]
        switch anchor {
        case .due: break
        case .strict: parts.append(Self.strictPart + "=TRUE")
        case .completion: parts.append(Self.fromPart + "=COMPLETION")
        }
        if !exceptions.isEmpty {
            parts.append(Self.exceptionsPart + "=" + exceptions.map { $0.description.replacingOccurrences(of: "-", with: "") }.joined(separator: ","))
        }
        return parts.joined(separator: ";")
    }

    /// `daily` … `yearly`, or `3d`: the frequency and interval alone.
    var shortForm: String {
        guard let rule else { return description }
        if rule.interval == 1 {
            switch rule.frequency {
            case .daily: return "daily"
            case .weekly: return "weekly"
            case .monthly: return "monthly"
            case .yearly: return "yearly"
            }
        }
        let unit = Self.shortUnits.first { $0.value == rule.frequency }!.key
        return "\(rule.interval)\(unit)"
    }

    static func compactDay(_ text: some StringProtocol) -> CalendarDay? {
        guard text.count == 8 else { return nil }
        return CalendarDay(parsing: "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))")
    }

    // MARK: The next occurrence

    /// The due date of the occurrence after one due at `due` and completed
    /// on `today`, and the repeat it carries (a COUNT one less); nil once
    /// the series has ended (its COUNT used up, its UNTIL passed).
    ///
    /// Counted from `due` (from `today` for `.completion`); completed late,
    /// the first occurrence due today or later unless strict. A time of day
    /// stays that time in `timeZone` (9:00 stays 9:00 across a clock change).
    /// A kept rule has none here: the app that wrote it makes it.
    public func next(after due: TodoDue, completedOn today: CalendarDay, in timeZone: TimeZone) -> (due: TodoDue, repeat: TodoRepeat)? {
        guard let rule else { return nil }
        var following = self
        var series = rule
        if case let .count(count)? = rule.end {
            guard count > 1 else { return nil }
            var carried = rule
            carried.end = .count(count - 1)
            following = TodoRepeat(rule: carried, anchor: anchor, exceptions: exceptions)
            series.end = nil
        }
        let dueDay = due.day(in: timeZone)
        let start = anchor == .completion ? today : dueDay
        let after = switch anchor {
        case .due: max(dueDay, today.adding(days: -1))
        case .strict: dueDay
        case .completion: today
        }
        let excluded = Set(exceptions)
        guard let day = Self.engineRule(series, startingOn: start).day(after: after, from: start, in: timeZone, excluding: excluded) else {
            return nil
        }
        let nextDue = due.moved(to: day, in: timeZone)
        if case let .until(.moment(last))? = rule.end, case let .moment(moment) = nextDue, moment > last { return nil }
        // Past exceptions are of no more use to the occurrences that follow.
        let left = following.exceptions.filter { $0 > day }
        if left != following.exceptions, let carried = following.rule { following = TodoRepeat(rule: carried, anchor: anchor, exceptions: left) }
        return (nextDue, following)
    }

    /// The rule the engine follows from `start`. A plain monthly or yearly
    /// rule keeps to the month's end as people expect, where RFC 5545 would
    /// skip the months too short: from a month's last day, the last day of
    /// each month; from the 29th or 30th, that day, or the month's last
    /// where it is shorter (from 30 January: 28 February, and a todo done
    /// late in March is due 30 March). A next occurrence that fell on a
    /// month's last day goes on from there, as the short forms always did.
    static func engineRule(_ rule: RecurrenceRule, startingOn start: CalendarDay) -> RecurrenceRule {
        guard rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.bySetPosition.isEmpty, start.day >= 29 || start == start.endOfMonth,
              rule.frequency == .monthly || rule.frequency == .yearly else { return rule }
        var clamped = rule
        if clamped.frequency == .yearly, clamped.byMonth.isEmpty { clamped.byMonth = [start.month] }
        if start == start.endOfMonth {
            clamped.byMonthDay = [-1]
            clamped.bySetPosition = []
        } else {
            clamped.byMonthDay = Array(28...start.day)
            clamped.bySetPosition = [-1]
        }
        return clamped
    }
}
