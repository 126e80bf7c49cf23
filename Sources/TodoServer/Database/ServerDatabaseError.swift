/// The database could not be opened; says why and what to do.
public struct ServerDatabaseError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
