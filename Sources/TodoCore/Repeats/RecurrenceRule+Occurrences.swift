import Foundation

// Which days a rule names, RFC 5545 3.3.10's way: the series is cut into
// periods (a day, a week from WKST, a month, a year) from the start's own,
// every INTERVAL-th period kept; a period's days are those every BYxxx part
// allows (BYDAY with an ordinal counted within the month, or within the year
// unless BYMONTH is given); BYSETPOS picks among them; COUNT and UNTIL end it.
// A part the rule leaves out is taken from the start, as the RFC says: a
// weekly rule falls on the start's weekday, a monthly one on its day of the
// month, a yearly one on its month and day.

extension RecurrenceRule {
    /// The days of the series that starts on `start`, in order, from `start`
    /// on: `start` itself only if the rule names it, and COUNT counting from
    /// there. Ends with the series, or after 400 years of periods with none
    /// (a rule such as 30 February names no day at all). An UNTIL moment
    /// ends the series on its day in `timeZone`.
    public func days(from start: CalendarDay, in timeZone: TimeZone = .gmt) -> Days {
        Days(rule: self, start: start, timeZone: timeZone)
    }

    /// The first day of the series from `start` that is later than `day`, or
    /// nil when the series ends before one; `excluding` are days taken out
    /// of it (EXDATE), which still count toward COUNT.
    public func day(
        after day: CalendarDay, from start: CalendarDay, in timeZone: TimeZone = .gmt, excluding: Set<CalendarDay> = []
    ) -> CalendarDay? {
        for candidate in days(from: start, in: timeZone) where candidate > day && !excluding.contains(candidate) {
            return candidate
        }
        return nil
    }

    /// The series' days, one period at a time.
    public struct Days: Sequence, IteratorProtocol, Sendable {
        let rule: Rule
        let start: CalendarDay
        /// The period being read: its first day's number (days since 1970),
        /// and for months and years its year and month.
        var period: Period
        var pending: [Int] = []
        var pendingIndex = 0
        var emitted = 0
        var finished = false

        init(rule: RecurrenceRule, start: CalendarDay, timeZone: TimeZone) {
            self.rule = Rule(rule, start: start, timeZone: timeZone)
            self.start = start
            self.period = Period(rule: self.rule, start: start)
        }

        public mutating func next() -> CalendarDay? {
            while !finished {
                if pendingIndex < pending.count {
                    let number = pending[pendingIndex]
                    pendingIndex += 1
                    let day = CalendarDay(daysSince1970: number)
                    if let lastDay = rule.lastDay, day > lastDay {
                        finished = true
                        return nil
                    }
                    emitted += 1
                    if let count = rule.count, emitted >= count { finished = true }
                    return day
                }
                pending = rule.days(of: period, from: start.daysSince1970)
                pendingIndex = 0
                if period.isPast(start, years: 400) { finished = true }
                period.advance(by: rule)
            }
            return nil
        }
    }

    /// The rule with its left-out parts taken from the start, and its lists
    /// as sets and masks, ready to test a day at a time.
    struct Rule: Sendable {
        let frequency: Frequency
        let interval: Int
        let weekStart: Int
        /// BYMONTH as a mask of months 1…12 (all set when not given).
        let months: [Bool]
        /// BYDAY without an ordinal, as a mask of weekdays 1…7.
        let everyWeekday: [Bool]
        let hasEveryWeekday: Bool
        /// BYDAY with an ordinal.
        let nthWeekdays: [Weekday]
        /// BYMONTHDAY, from the front and from the back (-1 the last day).
        let monthDays: Set<Int>
        let setPositions: [Int]
        let count: Int?
        /// UNTIL's day.
        let lastDay: CalendarDay?

        init(_ rule: RecurrenceRule, start: CalendarDay, timeZone: TimeZone) {
            frequency = rule.frequency
            interval = rule.interval
            weekStart = rule.weekStart
            var byMonth = rule.byMonth
            var byMonthDay = rule.byMonthDay
            var byDay = rule.byDay
            if byMonthDay.isEmpty, byDay.isEmpty {
                switch rule.frequency {
                case .yearly:
                    if byMonth.isEmpty { byMonth = [start.month] }
                    byMonthDay = [start.day]
                case .monthly: byMonthDay = [start.day]
                case .weekly: byDay = [Weekday(start.weekday)]
                case .daily: break
                }
            }
            var months = Array(repeating: byMonth.isEmpty, count: 13)
            for month in byMonth { months[month] = true }
            self.months = months
            var everyWeekday = Array(repeating: false, count: 8)
            for entry in byDay where entry.ordinal == nil { everyWeekday[entry.weekday] = true }
            self.everyWeekday = everyWeekday
            hasEveryWeekday = byDay.contains { $0.ordinal == nil }
            nthWeekdays = byDay.filter { $0.ordinal != nil }
            monthDays = Set(byMonthDay)
            setPositions = rule.bySetPosition
            switch rule.end {
            case let .count(count): self.count = count; lastDay = nil
            case let .until(until): self.count = nil; lastDay = until.lastDay(in: timeZone)
            case nil: self.count = nil; lastDay = nil
            }
        }

        /// The days of `period` the rule names, as day numbers in order,
        /// none before `first` (the start's).
        func days(of period: Period, from first: Int) -> [Int] {
            var days: [Int] = []
            switch frequency {
            case .daily:
                if allows(period.firstDay) { days.append(period.firstDay) }
            case .weekly:
                for number in period.firstDay..<(period.firstDay + 7) where allows(number) { days.append(number) }
            case .monthly:
                guard months[period.month] else { break }
                let length = CalendarDay.daysIn(month: period.month, year: period.year)
                let nth = nthWeekdays.isEmpty ? [] : nthDays(from: period.firstDay, length: length)
                for number in period.firstDay..<(period.firstDay + length) where allows(number, nth: nth) { days.append(number) }
            case .yearly:
                let yearFirst = period.firstDay
                let yearLength = CalendarDay.daysIn(month: 2, year: period.year) == 29 ? 366 : 365
                // Ordinal weekdays count within each month when BYMONTH is given, else within the year.
                let countsWithinMonths = months.dropFirst().contains(false)
                let yearNth = nthWeekdays.isEmpty || countsWithinMonths ? [] : nthDays(from: yearFirst, length: yearLength)
                var monthFirst = yearFirst
                for month in 1...12 {
                    let length = CalendarDay.daysIn(month: month, year: period.year)
                    defer { monthFirst += length }
                    guard months[month] else { continue }
                    let nth = countsWithinMonths && !nthWeekdays.isEmpty ? nthDays(from: monthFirst, length: length) : yearNth
                    for number in monthFirst..<(monthFirst + length) where allows(number, nth: nth) { days.append(number) }
                }
            }
            if !setPositions.isEmpty, !days.isEmpty {
                var picked = Set<Int>()
                for position in setPositions {
                    let index = position > 0 ? position - 1 : days.count + position
                    if days.indices.contains(index) { picked.insert(days[index]) }
                }
                days = picked.sorted()
            }
            return days.filter { $0 >= first }
        }

        /// The days an ordinal BYDAY names within the span of `length` days
        /// from `first` (a month or a year).
        func nthDays(from first: Int, length: Int) -> Set<Int> {
            let firstWeekday = Self.weekday(first)
            var days = Set<Int>()
            for entry in nthWeekdays {
                guard let ordinal = entry.ordinal else { continue }
                let offsetToFirst = (entry.weekday - firstWeekday + 7) % 7
                let occurrences = (length - 1 - offsetToFirst) / 7 + 1
                let index = ordinal > 0 ? ordinal - 1 : occurrences + ordinal
                if (0..<occurrences).contains(index) { days.insert(first + offsetToFirst + 7 * index) }
            }
            return days
        }

        /// Whether the day numbered `number` passes BYMONTH, BYMONTHDAY and
        /// BYDAY (its ordinal entries named by `nth`).
        func allows(_ number: Int, nth: Set<Int> = []) -> Bool {
            let needsDate = frequency == .daily || frequency == .weekly || !monthDays.isEmpty
            var date: CalendarDay?
            if needsDate {
                let day = CalendarDay(daysSince1970: number)
                if frequency == .daily || frequency == .weekly, !months[day.month] { return false }
                date = day
            }
            if !monthDays.isEmpty, let date {
                let fromEnd = date.day - CalendarDay.daysIn(month: date.month, year: date.year) - 1
                guard monthDays.contains(date.day) || monthDays.contains(fromEnd) else { return false }
            }
            if hasEveryWeekday || !nthWeekdays.isEmpty {
                let plain = hasEveryWeekday && everyWeekday[Self.weekday(number)]
                guard plain || nth.contains(number) else { return false }
            }
            return true
        }

        /// 1 Monday … 7 Sunday of the day numbered `number`.
        static func weekday(_ number: Int) -> Int {
            ((number % 7 + 7) % 7 + 3) % 7 + 1
        }
    }

    /// A period of a rule: a day, a week (from WKST), a month or a year.
    struct Period: Sendable {
        var firstDay: Int
        var year: Int
        var month: Int

        init(rule: Rule, start: CalendarDay) {
            year = start.year
            month = start.month
            switch rule.frequency {
            case .daily: firstDay = start.daysSince1970
            case .weekly:
                let number = start.daysSince1970
                firstDay = number - (Rule.weekday(number) - rule.weekStart + 7) % 7
            case .monthly: firstDay = CalendarDay(year: year, month: month, day: 1)!.daysSince1970
            case .yearly:
                month = 1
                firstDay = CalendarDay(year: year, month: 1, day: 1)!.daysSince1970
            }
        }

        mutating func advance(by rule: Rule) {
            switch rule.frequency {
            case .daily: firstDay += rule.interval
            case .weekly: firstDay += 7 * rule.interval
            case .monthly:
                let index = year * 12 + (month - 1) + rule.interval
                year = index / 12
                month = index % 12 + 1
                firstDay = CalendarDay(year: min(year, 9999), month: month, day: 1)!.daysSince1970
            case .yearly:
                year += rule.interval
                firstDay = CalendarDay(year: min(year, 9999), month: 1, day: 1)!.daysSince1970
            }
        }

        /// Whether the period is more than `years` years after `start`, or past the calendar's end.
        func isPast(_ start: CalendarDay, years: Int) -> Bool {
            year >= 9999 || firstDay - start.daysSince1970 > years * 366
        }
    }
}
