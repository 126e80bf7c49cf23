/// One todo as the server holds it: its JSON object, ready to send.
public struct StoredTodo: Sendable, Equatable {
    /// The id's string form.
    public let id: String
    public let version: Int
    /// The object as served: the client's fields plus `version` and `updatedAt`.
    public let json: String

    public init(id: String, version: Int, json: String) {
        self.id = id
        self.version = version
        self.json = json
    }
}
