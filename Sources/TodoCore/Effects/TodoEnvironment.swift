import Foundation

/// The uncontrolled inputs of the logic: the clock, the time zone and the
/// UUID source. Tests pin them so results are exact.
public struct TodoEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var uuid: @Sendable () -> UUID
    /// Where "today" and a due date's time of day are reckoned.
    public var timeZone: TimeZone

    public init(now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID, timeZone: TimeZone = .current) {
        self.now = now
        self.uuid = uuid
        self.timeZone = timeZone
    }

    public static var live: TodoEnvironment { TodoEnvironment(now: { Date() }, uuid: { UUID() }) }
}
