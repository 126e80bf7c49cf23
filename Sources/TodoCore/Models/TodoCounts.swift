/// How many todos are pending and done, whatever the filter and query.
public struct TodoCounts: Sendable, Hashable {
    public var pending: Int
    public var done: Int

    public init(pending: Int, done: Int) {
        self.pending = pending
        self.done = done
    }
}
