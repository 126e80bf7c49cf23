// The next occurrence of a repeat, as `todo done` computes it for each
// repeating todo it completes: the rules people write (the words `--repeat`
// takes) and RFC 5545's own examples, from due dates over four years,
// completed on the day and a week late. Prints the mean time a call, in
// nanoseconds, for each group and for all.
//
//   swift run -c release repeat-bench [--calls N]
import Foundation
import TodoCore

let words = [
    "daily", "weekly", "monthly", "yearly", "3d", "2w", "weekdays", "mon,wed,fri", "every 2 weeks on tue,fri",
    "monthly on the last friday", "monthly on the 15th", "monthly on the 1st and 15th", "monthly on the last weekday",
    "every 3 months on the 2nd tuesday", "yearly on dec 24", "every 3 days from completion", "weekly, 10 times",
    "weekdays!", "weekly, except 2026-12-24",
]
let rfc = [
    "FREQ=DAILY;INTERVAL=10;COUNT=5", "FREQ=WEEKLY;INTERVAL=2;WKST=SU", "FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=MO,WE,FR",
    "FREQ=MONTHLY;INTERVAL=2;BYDAY=1SU,-1SU", "FREQ=MONTHLY;BYDAY=-2MO", "FREQ=MONTHLY;BYMONTHDAY=-3",
    "FREQ=MONTHLY;INTERVAL=18;BYMONTHDAY=10,11,12,13,14,15", "FREQ=YEARLY;INTERVAL=2;BYMONTH=1,2,3", "FREQ=YEARLY;BYDAY=20MO",
    "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
    "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", "FREQ=MONTHLY;BYDAY=TU,WE,TH;BYSETPOS=3",
    "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "FREQ=DAILY;BYMONTH=1",
]

let calls: Int = {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--calls"), index + 1 < arguments.count, let n = Int(arguments[index + 1]) else { return 200_000 }
    return n
}()
let zone = TimeZone(identifier: "Europe/Berlin")!
let first = CalendarDay(year: 2026, month: 1, day: 1)!

func measure(_ name: String, _ texts: [String]) -> Double {
    let repeats = texts.map { TodoRepeat(parsing: $0)! }
    var checksum = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for call in 0..<calls {
            let repeating = repeats[call % repeats.count]
            let due = first.adding(days: (call / repeats.count * 7) % 1461)
            let done = call % 2 == 0 ? due : due.adding(days: 7)
            if let next = repeating.next(after: .day(due), completedOn: done, in: zone) {
                checksum &+= next.due.day(in: zone).day
            }
        }
    }
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    let mean = nanoseconds / Double(calls)
    print("\(name)\t\(texts.count) rules\t\(String(format: "%.0f", mean)) ns a call\t(checksum \(checksum))")
    return mean
}

_ = measure("words", words)
_ = measure("rfc5545", rfc)
_ = measure("all", words + rfc)
