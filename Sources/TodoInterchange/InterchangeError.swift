/// What is wrong with a file another tool wrote, and where: the import of
/// it stops there, and nothing is written.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line it is on, from 1; nil for the file as a whole.
    public var line: Int?
    /// Why, saying what to do.
    public var reason: String

    public init(line: Int?, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `3: …`, or the reason alone, to follow a file name and a colon.
    public var description: String {
        (line.map { "\($0): " } ?? " ") + reason
    }
}
