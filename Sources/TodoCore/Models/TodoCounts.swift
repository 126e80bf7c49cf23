/// How many todos a list shows, whatever the filter and query: pending and
/// done ones as `todo list` and `todo list --done` list them, and the pending
/// ones still waiting (`todo list --waiting`), which those lists leave out.
/// A todo past its until date is in none of them.
public struct TodoCounts: Sendable, Hashable {
    public var pending: Int
    public var done: Int
    public var waiting: Int

    public init(pending: Int, done: Int, waiting: Int = 0) {
        self.pending = pending
        self.done = done
        self.waiting = waiting
    }
}
