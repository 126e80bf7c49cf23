import Foundation

/// `todo next`: the pending todos to do now, ranked by an urgency a person
/// can read, as Taskwarrior ranks its `next` report.
///
/// A todo's urgency is a sum of terms, each a weight times a factor between
/// 0 and 1 (`UrgencyTerm`). Computed in millionths, whole numbers, so the
/// ranking SQLite computes (`AppDatabase.nextSQL`) is exactly this one.

/// The weight of each term. The defaults are Taskwarrior's coefficients;
/// `config.toml`'s `[urgency]` table sets any of them (Docs/command-line.md, "todo next").
public struct UrgencyWeights: Sendable, Equatable {
    /// Tagged `next`.
    public var nextTag = 15.0
    /// Due: 0.2 two weeks ahead or more, rising to 1 at a week overdue.
    public var due = 12.0
    public var priorityHigh = 6.0
    public var priorityMedium = 3.9
    public var priorityLow = 1.8
    /// Its scheduled date reached.
    public var scheduled = 5.0
    /// Started (`todo start`): being worked on.
    public var active = 4.0
    /// Age: 0 when new, 1 at `ageLimitDays` or older.
    public var age = 2.0
    public var ageLimitDays = 365

    /// The bounds config.toml keeps the weights in: with them, no sum of
    /// terms leaves 64 bits.
    public static let largestWeight = 1_000.0
    public static let longestAgeLimit = 36_500
    /// Has a note (0.8, as Taskwarrior counts one annotation).
    public var note = 1.0
    /// Has tags: 0.8 for one, 0.9 for two, 1 for three or more.
    public var tags = 1.0
    /// Has a project.
    public var project = 1.0
    /// Blocks an open todo (`--blocked-by`): finishing it frees another.
    public var blocking = 8.0

    public init() {}

    /// Taskwarrior's coefficients.
    public static let taskwarrior = UrgencyWeights()

    /// The names `config.toml` uses, each with its weight's key path.
    public static var names: [(name: String, weight: WritableKeyPath<UrgencyWeights, Double>)] {
        terms.map { ($0.name, $0.weight) }
    }

    /// Each term: its name in `config.toml`, its weight's key path, and
    /// what makes it count (for `todo next --help` and MCP's tool).
    public static var terms: [(name: String, weight: WritableKeyPath<UrgencyWeights, Double>, meaning: String)] { [
        ("next_tag", \.nextTag, "tagged next"),
        ("due", \.due, "0.2 two weeks ahead or more, rising to 1 at a week overdue"),
        ("priority_high", \.priorityHigh, "its priority high"),
        ("priority_medium", \.priorityMedium, "its priority medium"),
        ("priority_low", \.priorityLow, "its priority low"),
        ("scheduled", \.scheduled, "its scheduled date reached"),
        ("active", \.active, "started: being worked on"),
        ("age", \.age, "0 when new, 1 at age_limit_days (365) or older"),
        ("note", \.note, "times 0.8 when it has a note"),
        ("tags", \.tags, "times 0.8, 0.9 or 1 for one, two, three or more tags"),
        ("project", \.project, "has a project"),
        ("blocking", \.blocking, "an open todo waits for it"),
    ] }
}

/// One term of a todo's urgency: its name, why it applies, and what it adds.
public struct UrgencyTerm: Sendable, Equatable {
    public var name: String
    /// The factor, said plainly: `due in 3 days (0.69)`.
    public var reason: String
    /// What it adds, in millionths.
    public var micros: Int64

    public var value: Double { Double(micros) / 1_000_000 }
}

/// Urgency in millionths: whole numbers, the same in Swift and in SQLite.
public enum Urgency {
    /// A weight in millionths.
    public static func micros(_ weight: Double) -> Int64 { Int64((weight * 1_000_000).rounded()) }

    /// Seconds since 1970 at which a due date counts: a moment's own second
    /// (rounded down), a day's midnight at `offset` seconds east of UTC (the
    /// machine's offset now, so SQLite reckons it the same way).
    public static func second(of due: TodoDue, offset: Int) -> Int64 {
        switch due {
        case let .day(day): Int64(day.daysSince1970) * 86_400 - Int64(offset)
        case let .moment(date): Int64((date.timeIntervalSince1970).rounded(.down))
        }
    }

    /// The due term's millionths for a todo due `overdue` seconds ago
    /// (negative: ahead): Taskwarrior's line from 0.2 at 14 days ahead to 1 at 7 days overdue.
    public static func dueMicros(weight: Int64, overdue seconds: Int64) -> Int64 {
        if seconds >= 7 * 86_400 { return weight }
        if seconds >= -14 * 86_400 { return weight * ((seconds + 14 * 86_400) * 4 + 21 * 86_400) / (5 * 21 * 86_400) }
        return weight / 5
    }

    /// The tags term's factor, in tenths: 8, 9 or 10 for one, two, three or more tags.
    public static func tagTenths(_ count: Int) -> Int64 {
        switch count {
        case 0: 0
        case 1: 8
        case 2: 9
        default: 10
        }
    }

    /// Every term that applies to `item` at `now`, in the order `--why` shows
    /// them; `blocking`: how many open todos it blocks.
    public static func terms(
        of item: TodoItem, weights: UrgencyWeights, now: Date, timeZone: TimeZone, blocking: Int = 0
    ) -> [UrgencyTerm] {
        var terms: [UrgencyTerm] = []
        func add(_ name: String, _ reason: String, _ value: Int64) {
            if value != 0 { terms.append(UrgencyTerm(name: name, reason: reason, micros: value)) }
        }
        if item.tags.contains("next") { add("next", "tagged next", micros(weights.nextTag)) }
        if let due = item.due {
            let nowSecond = Int64((now.timeIntervalSince1970).rounded(.down))
            let overdue = nowSecond - second(of: due, offset: timeZone.secondsFromGMT(for: now))
            let days = Double(overdue) / 86_400
            let reason = days >= 0 ? String(format: "due %.1f days ago", days) : String(format: "due in %.1f days", -days)
            add("due", reason, dueMicros(weight: micros(weights.due), overdue: overdue))
        }
        switch item.priority {
        case .high?: add("priority", "priority high", micros(weights.priorityHigh))
        case .medium?: add("priority", "priority medium", micros(weights.priorityMedium))
        case .low?: add("priority", "priority low", micros(weights.priorityLow))
        case nil: break
        }
        if let scheduled = item.scheduled, scheduled.isReached(now: now, in: timeZone) {
            add("scheduled", "scheduled for \(scheduled.text), reached", micros(weights.scheduled))
        }
        if let start = item.start { add("active", "started \(start.text)", micros(weights.active)) }
        // In whole seconds: a weight of 1,000 (in millionths) times 100 years of them stays within 64 bits.
        let limit = Int64(min(max(1, weights.ageLimitDays), UrgencyWeights.longestAgeLimit)) * 86_400
        let age = min(max(now.millisecondsSince1970 - item.createdAt.millisecondsSince1970, 0) / 1_000, limit)
        add("age", String(format: "created %.0f days ago", Double(age) / 86_400), micros(weights.age) * age / limit)
        if item.note != nil { add("note", "has a note", micros(weights.note) * 8 / 10) }
        if !item.tags.isEmpty { add("tags", "\(item.tags.count) tag\(item.tags.count == 1 ? "" : "s")", micros(weights.tags) * tagTenths(item.tags.count) / 10) }
        if let project = item.project { add("project", "in project \(project)", micros(weights.project)) }
        if blocking > 0 { add("blocking", "blocks \(blocking) open todo\(blocking == 1 ? "" : "s")", micros(weights.blocking)) }
        return terms
    }

    /// The urgency of `item` at `now`, in millionths.
    public static func micros(
        of item: TodoItem, weights: UrgencyWeights, now: Date, timeZone: TimeZone, blocking: Int = 0
    ) -> Int64 {
        terms(of: item, weights: weights, now: now, timeZone: timeZone, blocking: blocking).reduce(0) { $0 + $1.micros }
    }
}

/// What `todo next` asks for: the todos `filter` selects (pending, not
/// waiting, as `todo list` shows them), ranked by urgency at `now`.
public struct NextRequest: Sendable, Equatable {
    public var filter: TodoRequest
    public var weights: UrgencyWeights
    public var now: Date
    public var timeZone: TimeZone
    public var limit: Int

    public init(filter: TodoRequest, weights: UrgencyWeights = .taskwarrior, now: Date, timeZone: TimeZone, limit: Int) {
        var filter = filter
        filter.status = .pending
        filter.sort = .created
        filter.limit = nil
        self.filter = filter
        self.weights = weights
        self.now = now.roundedToMilliseconds
        self.timeZone = timeZone
        self.limit = limit
    }
}

/// A todo `todo next` lists, with its urgency in millionths.
public struct RankedTodo: Sendable, Equatable {
    public var todo: ListedTodo
    public var urgency: Int64

    public init(todo: ListedTodo, urgency: Int64) {
        self.todo = todo
        self.urgency = urgency
    }
}

/// The todos `request` ranks first, from `items` (every todo, done ones
/// too) in list order (newest first): those its filter selects that no open
/// todo blocks, most urgent first, ties newest first.
public func selectNextTodos(items: [TodoItem], request: NextRequest) -> [(item: TodoItem, urgency: Int64)] {
    let blocks = BlockCounts(items)
    let ranked = selectRequestedTodos(items: items, request: request.filter).filter { !blocks.isBlocked($0) }
        .enumerated().map { index, item in
            (index: index, item: item, urgency: Urgency.micros(
                of: item, weights: request.weights, now: request.now, timeZone: request.timeZone,
                blocking: blocks.blocking[item.id] ?? 0
            ))
        }
    return ranked.sorted { $0.urgency != $1.urgency ? $0.urgency > $1.urgency : $0.index < $1.index }
        .prefix(request.limit).map { ($0.item, $0.urgency) }
}

/// Which todos are blocked, and how many open todos each one blocks, among
/// every todo: a blocker done or gone blocks nothing.
public struct BlockCounts: Sendable {
    /// The open todos.
    public let open: Set<UUID>
    /// For each todo, how many open todos list it as a blocker.
    public let blocking: [UUID: Int]

    public init(_ items: [TodoItem]) {
        let open = Set(items.lazy.filter { !$0.isDone }.map(\.id))
        var blocking: [UUID: Int] = [:]
        for item in items where !item.isDone {
            for blocker in item.blockedBy { blocking[blocker, default: 0] += 1 }
        }
        self.open = open
        self.blocking = blocking
    }

    /// Whether an open todo blocks `item`.
    public func isBlocked(_ item: TodoItem) -> Bool {
        item.blockedBy.contains(where: open.contains)
    }
}
