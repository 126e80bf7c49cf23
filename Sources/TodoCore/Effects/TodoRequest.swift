/// Which todos to fetch: a filter on the done flag, a search query and a limit.
public struct TodoRequest: Sendable, Equatable {
    public enum Status: Sendable, Equatable, CaseIterable {
        case pending, done, all
    }

    public var status: Status
    /// Case-insensitive substring, as `selectFilteredTodos` matches; "" selects everything.
    public var query: String
    public var limit: Int?

    public init(status: Status = .all, query: String = "", limit: Int? = nil) {
        self.status = status
        self.query = query
        self.limit = limit
    }
}

extension TodoRequest.Status {
    public func includes(_ item: TodoItem) -> Bool {
        switch self {
        case .pending: !item.isDone
        case .done: item.isDone
        case .all: true
        }
    }
}
