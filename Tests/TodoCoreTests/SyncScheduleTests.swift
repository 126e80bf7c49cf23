import PropertyBased
import Testing
import TodoCore

/// `todo sync --watch`'s waits: never shorter than the user's interval,
/// never longer than five minutes (or the interval), back to the interval
/// once a sync brings changes.
struct SyncScheduleTests {
    static let outcome = Gen.int(in: 0...2).map { [SyncSchedule.Outcome.changed, .unchanged, .failed][$0] }

    @Test func everyWaitStaysBetweenTheIntervalAndTheCeiling() async {
        await propertyCheck(count: 500, input: Gen.int(in: 1...900), Self.outcome.array(of: 0...40), Gen.int(in: 0...999)) { seconds, outcomes, jitter in
            var schedule = SyncSchedule(every: .seconds(seconds))
            for outcome in outcomes {
                schedule.record(outcome)
                let wait = schedule.delay(jitter: Double(jitter) / 1000)
                #expect(wait >= .seconds(seconds))
                #expect(wait <= max(.seconds(seconds), SyncSchedule.ceiling))
                if outcome == .changed { #expect(wait < .seconds(seconds) * 1.2) }
            }
        }
    }

    @Test func quietRoundsBackOffToTheCeilingAndAChangeComesBack() {
        var schedule = SyncSchedule(every: .seconds(30))
        var waits: [Duration] = []
        for _ in 0..<6 {
            schedule.record(.unchanged)
            waits.append(schedule.delay(jitter: 0.5))
        }
        #expect(waits == [.seconds(60), .seconds(120), .seconds(240), .seconds(300), .seconds(300), .seconds(300)])
        schedule.record(.changed)
        #expect(schedule.delay(jitter: 0.5) == .seconds(30))
        schedule.record(.failed)
        #expect(schedule.delay(jitter: 0.5) == .seconds(30))
        schedule.record(.failed)
        #expect(schedule.delay(jitter: 0.5) == .seconds(60))
    }
}
