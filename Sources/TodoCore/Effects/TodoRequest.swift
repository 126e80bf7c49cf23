/// Which todos to fetch and in what order: the done flag, a search query,
/// the planning filters (tags, due, priority), a sort and a limit.
///
/// `selectRequestedTodos` defines what a request selects; storage answers
/// the same inside the database.
public struct TodoRequest: Sendable, Equatable {
    public enum Status: Sendable, Equatable, CaseIterable {
        case pending, done, all
    }

    /// The order of the list; ties always go newest first.
    public enum Sort: String, Sendable, Equatable, CaseIterable {
        /// Newest first, the default.
        case created
        /// Soonest due first (as due dates sort as text, `TodoDue.text`), todos with no due date last.
        case due
        /// High first, todos with no priority last.
        case priority
    }

    /// Which priority a request keeps: one level, or none set (`--priority none`).
    public enum PriorityFilter: Sendable, Equatable {
        case level(TodoPriority)
        case unset

        /// Whether a todo of priority `priority` passes.
        public func includes(_ priority: TodoPriority?) -> Bool {
            switch self {
            case let .level(level): priority == level
            case .unset: priority == nil
            }
        }
    }

    public var status: Status
    /// Case-insensitive substring, as `selectFilteredTodos` matches; "" selects everything.
    public var query: String
    /// Todos carrying every one of these tags (exact, as stored); none: no condition.
    public var tags: [String]
    /// Todos carrying none of these tags (`--not-tag`).
    public var excludedTags: [String]
    public var due: DueFilter?
    public var priority: PriorityFilter?
    public var sort: Sort
    public var limit: Int?

    public init(
        status: Status = .all, query: String = "", tags: [String] = [], excludedTags: [String] = [], due: DueFilter? = nil,
        priority: PriorityFilter? = nil, sort: Sort = .created, limit: Int? = nil
    ) {
        self.status = status
        self.query = query
        self.tags = TodoTags.normalized(tags)
        self.excludedTags = TodoTags.normalized(excludedTags)
        self.due = due
        self.priority = priority
        self.sort = sort
        self.limit = limit
    }

    /// Whether the request filters or sorts by a planning field: what the
    /// windowed view, which lists by status and query only, does not do.
    public var usesPlanningFields: Bool {
        !tags.isEmpty || !excludedTags.isEmpty || due != nil || priority != nil || sort != .created
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
