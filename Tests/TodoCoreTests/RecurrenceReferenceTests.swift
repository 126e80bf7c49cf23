import Foundation
import TestSupport
import Testing
import TodoCore

/// The rule engine against a reference implementation, python-dateutil's
/// `rrule` (PyPI, in `.build/venv`, which `.ci/run` installs): random rules
/// from random start dates, and the first ten days of each agree.
///
/// 1,000 rules a run; `TODO_RRULE_CASES=100000` runs more, and
/// `TODO_RRULE_SEED` repeats a run (its seed is printed when one fails).
@Suite("Repeat rules against python-dateutil")
struct RecurrenceReferenceTests {
    static let python = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/venv/bin/python")

    static var installed: Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        return (try? runProgram(python, ["-c", "import dateutil.rrule"]).status) == 0
    }

    /// How far from its start a rule's days are compared: dateutil looks
    /// for a day of a rule that names none (30 February) up to the year
    /// 9999, seconds a rule, unless told where to stop.
    static let years = 30

    /// Reads `YYYYMMDD<TAB>RULE` lines, writes each rule's first ten days
    /// (those within `years` years of its start) as one line.
    static let script = """
        import sys, itertools
        from datetime import datetime
        from dateutil.rrule import rrulestr
        for line in open(sys.argv[1]):
            start, rule = line.rstrip("\\n").split("\\t")
            first = datetime.strptime(start, "%Y%m%d")
            series = rrulestr(rule, dtstart=first)
            end = first.replace(year=first.year + \(years), day=min(first.day, 28))
            if series._until is None or series._until >= end:
                series = series.replace(until=end)
            print(" ".join(day.strftime("%Y%m%d") for day in itertools.islice(series, 10)))
        """

    @Test(.enabled(if: installed, "python-dateutil is not in .build/venv: bash .ci/run installs it"))
    func theFirstTenDaysAgreeWithDateutil() throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["TODO_RRULE_CASES"].flatMap(Int.init) ?? 1_000
        let seed = environment["TODO_RRULE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        let rules = (0..<cases).map { _ in (Self.randomStart(&random), Self.randomRule(&random)) }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("rrules-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        try rules.map { "\(Self.compact($0.0))\t\($0.1.rrule)" }.joined(separator: "\n").appending("\n").write(to: input, atomically: true, encoding: .utf8)
        let run = try runProgram(Self.python, ["-c", Self.script, input.path])
        try #require(run.status == 0, "\(run.err)")
        let answers = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(answers.count >= rules.count)
        var disagreements = 0
        for ((start, rule), answer) in zip(rules, answers) {
            let end = CalendarDay(year: start.year + Self.years, month: start.month, day: min(start.day, 28))!
            let ours = rule.days(from: start).prefix { $0 <= end }.prefix(10).map(Self.compact).joined(separator: " ")
            if ours != answer {
                disagreements += 1
                if disagreements <= 5 {
                    Issue.record("seed \(seed): \(rule.rrule) from \(start): ours \(ours), dateutil's \(answer)")
                }
            }
        }
        #expect(disagreements == 0, "seed \(seed): \(disagreements) of \(cases) rules disagree")
    }

    static func compact(_ day: CalendarDay) -> String { day.description.replacingOccurrences(of: "-", with: "") }

    static func randomStart(_ random: inout SeededRandom) -> CalendarDay {
        CalendarDay(daysSince1970: Int(random.next(below: 365 * 80)) + 365 * 20)
    }

    /// A rule of every part the engine takes, as RFC 5545 allows them
    /// together, except where dateutil reads the RFC otherwise:
    /// - a BYDAY with and without ordinals at once: dateutil reads `MO,-1FR`
    ///   as Mondays that are also the last Friday (none), where the RFC
    ///   means either;
    /// - BYSETPOS in a weekly rule: dateutil counts the first week's days
    ///   from the start on, so `BYDAY=MO,WE,FR;BYSETPOS=2` from a Wednesday
    ///   falls on that Friday; the RFC counts the whole week (that
    ///   Wednesday), as `RecurrenceRuleTests` holds.
    ///
    /// BYSETPOS picks among several weekdays of a month or a year (the last
    /// weekday of the month), and ordinal weekdays come without BYMONTHDAY:
    /// dateutil takes a second or more to find that a rule such as
    /// `FREQ=MONTHLY;BYMONTHDAY=12,26;BYSETPOS=4` names no day, and a run of
    /// such rules would test little but take minutes.
    static func randomRule(_ random: inout SeededRandom) -> RecurrenceRule {
        let frequency = RecurrenceRule.Frequency.allCases[Int(random.next(below: 4))]
        var rule = RecurrenceRule(frequency)
        if random.chance(0.5) { rule.interval = Int(random.next(below: 5)) + 1 }
        if random.chance(0.3) { rule.byMonth = random.distinct(1 + Int(random.next(below: 3)), of: 1...12) }
        if frequency != .weekly, random.chance(0.3) {
            rule.byMonthDay = random.distinct(1 + Int(random.next(below: 3)), of: 1...31).map { random.chance(0.3) ? -$0 : $0 }
        }
        if random.chance(0.5) {
            let ordinals = (frequency == .monthly || frequency == .yearly) && rule.byMonthDay.isEmpty && random.chance(0.5)
            let weekdays = random.distinct(1 + Int(random.next(below: ordinals ? 2 : 5)), of: 1...7)
            rule.byDay = weekdays.map { weekday in
                guard ordinals else { return .init(weekday) }
                let most = frequency == .yearly && rule.byMonth.isEmpty ? 53 : 5
                let ordinal = Int(random.next(below: UInt64(most))) + 1
                return .init(weekday, ordinal: random.chance(0.3) ? -ordinal : ordinal)
            }
        }
        if frequency == .monthly || frequency == .yearly, rule.byMonthDay.isEmpty, rule.byDay.count > 1, rule.byDay.allSatisfy({ $0.ordinal == nil }),
           random.chance(0.5) {
            rule.bySetPosition = random.distinct(1 + Int(random.next(below: 2)), of: 1...3).map { random.chance(0.5) ? -$0 : $0 }
        }
        if random.chance(0.3) {
            rule.end = .count(Int(random.next(below: 12)) + 1)
        } else if random.chance(0.2) {
            rule.end = .until(.day(CalendarDay(daysSince1970: Int(random.next(below: 365 * 100)) + 365 * 20)))
        }
        if random.chance(0.3) { rule.weekStart = Int(random.next(below: 7)) + 1 }
        return rule
    }
}

/// The draws the rule generator makes.
extension SeededRandom {
    mutating func next(below bound: UInt64) -> UInt64 { next() % bound }

    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) < probability * 1_000_000 }

    /// `count` different numbers of `range`, in order.
    mutating func distinct(_ count: Int, of range: ClosedRange<Int>) -> [Int] {
        var picked = Set<Int>()
        while picked.count < min(count, range.count) { picked.insert(range.lowerBound + Int(next(below: UInt64(range.count)))) }
        return picked.sorted()
    }
}
