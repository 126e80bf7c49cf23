import Foundation

/// The uncontrolled inputs of the logic: the clock and the UUID source.
/// Tests pin them so results are exact.
public struct TodoEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var uuid: @Sendable () -> UUID

    public init(now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID) {
        self.now = now
        self.uuid = uuid
    }

    public static let live = TodoEnvironment(now: { Date() }, uuid: { UUID() })
}
