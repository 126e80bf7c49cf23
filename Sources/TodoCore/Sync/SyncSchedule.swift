/// When a watching sync (`todo sync --watch`, a live `todo ui` polling a
/// server that does not announce its changes) runs next: every `every` while
/// syncs bring changes, backing off while nothing changes or the server
/// cannot be reached, never more often than `every` and never less often
/// than every five minutes (or `every`, if longer). Pure: the caller gives
/// each outcome and the jitter.
public struct SyncSchedule: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The sync pulled, pushed or deleted something.
        case changed
        /// The sync had nothing to do.
        case unchanged
        /// The server could not be reached, or the sync failed.
        case failed
    }

    /// The user's interval.
    public let every: Duration
    /// Syncs in a row that found nothing to do, or failed.
    public private(set) var quietRounds = 0
    public private(set) var failing = false

    public static let defaultEvery: Duration = .seconds(30)
    /// The longest wait between two syncs, unless `every` is longer.
    public static let ceiling: Duration = .seconds(300)

    public init(every: Duration = defaultEvery) {
        self.every = every
    }

    /// Counts an outcome.
    public mutating func record(_ outcome: Outcome) {
        switch outcome {
        case .changed:
            quietRounds = 0
            failing = false
        case .unchanged:
            quietRounds += 1
            failing = false
        case .failed:
            // The first failure after a success waits `every`, then backs off.
            quietRounds = failing ? quietRounds + 1 : 0
            failing = true
        }
    }

    /// The wait before the next sync: `every` doubled for each quiet round,
    /// spread by `jitter` (0 ..< 1, ±20%) so many clients do not retry in
    /// step, and kept between `every` and the ceiling.
    public func delay(jitter: Double) -> Duration {
        let ceiling = max(every, Self.ceiling)
        let doubled = every * Double(1 << min(quietRounds, 16))
        let spread = doubled * (0.8 + 0.4 * min(max(jitter, 0), 1))
        return min(max(spread, every), ceiling)
    }

    /// The wait before retrying a server that announces its changes (a live
    /// view's) after `failures` failed syncs in a row: 1 s doubled for each,
    /// at most a minute, spread by `jitter` (0 ..< 1) down to half of it, so
    /// many clients do not come back in step when the server does.
    public static func retryDelay(failures: Int, jitter: Double) -> Duration {
        let doubled = min(Duration.seconds(1) * Double(1 << min(max(failures - 1, 0), 16)), retryCeiling)
        return doubled * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }

    /// The longest wait before retrying a server that announces its changes.
    public static let retryCeiling: Duration = .seconds(60)
}
