/// How far a long piece of work has got, in the units it counts (a sync's
/// steps, the rows an undo reads and writes): what a progress bar shows.
public struct WorkProgress: Sendable, Hashable {
    public var done: Int
    public var total: Int

    public init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }
}
