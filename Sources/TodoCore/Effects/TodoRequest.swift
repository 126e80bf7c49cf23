import Foundation

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

    /// Which project a request keeps: one with its sub-projects (`home`
    /// keeps `home` and `home.garden`), or none set (`--project none`).
    public enum ProjectFilter: Sendable, Equatable {
        case within(String)
        case unset

        public func includes(_ project: String?) -> Bool {
            switch self {
            case let .within(name): TodoProject.project(project, isWithin: name)
            case .unset: project == nil
            }
        }
    }

    /// Which todos a request keeps by their wait and until dates.
    public enum Schedule: Sendable, Equatable {
        /// Every todo: exports, sync, MCP's lists by default.
        case any
        /// The todos to show at `now`: none still waiting (its wait date not
        /// reached), none unfinished past its until date (`todo list`, the view).
        case current(now: Date, timeZone: TimeZone)
        /// Only the todos still waiting at `now` (`list --waiting`).
        case waiting(now: Date, timeZone: TimeZone)

        /// `current` at `now`, to the millisecond as storage keeps moments.
        public static func current(at now: Date, in timeZone: TimeZone) -> Schedule {
            .current(now: now.roundedToMilliseconds, timeZone: timeZone)
        }

        /// `waiting` at `now`, to the millisecond.
        public static func waiting(at now: Date, in timeZone: TimeZone) -> Schedule {
            .waiting(now: now.roundedToMilliseconds, timeZone: timeZone)
        }

        public func includes(_ item: TodoItem) -> Bool {
            switch self {
            case .any:
                true
            case let .current(now, timeZone):
                (item.wait?.isReached(now: now, in: timeZone) ?? true)
                    && (item.isDone || !(item.until?.isOverdue(now: now, in: timeZone) ?? false))
            case let .waiting(now, timeZone):
                !(item.wait?.isReached(now: now, in: timeZone) ?? true)
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
    public var project: ProjectFilter?
    public var schedule: Schedule
    public var sort: Sort
    public var limit: Int?

    public init(
        status: Status = .all, query: String = "", tags: [String] = [], excludedTags: [String] = [], due: DueFilter? = nil,
        priority: PriorityFilter? = nil, project: ProjectFilter? = nil, schedule: Schedule = .any, sort: Sort = .created,
        limit: Int? = nil
    ) {
        self.status = status
        self.query = query
        self.tags = TodoTags.normalized(tags)
        self.excludedTags = TodoTags.normalized(excludedTags)
        self.due = due
        self.priority = priority
        self.project = project
        self.schedule = schedule
        self.sort = sort
        self.limit = limit
    }

    /// Whether the request filters or sorts by a planning field: what the
    /// windowed view, which lists by status, query and `current` schedule
    /// only, does not do.
    public var usesPlanningFields: Bool {
        !tags.isEmpty || !excludedTags.isEmpty || due != nil || priority != nil || project != nil || sort != .created
            || { if case .waiting = schedule { true } else { false } }()
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
