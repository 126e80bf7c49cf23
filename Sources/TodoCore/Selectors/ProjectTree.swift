import Foundation

/// The projects of the pending todos as a tree (`todo projects`): a pure
/// selector from each project's own count of pending todos.

/// One line of the tree: a project, how deep it sits, and its pending
/// todos counted with those of its sub-projects.
public struct ProjectTreeRow: Sendable, Equatable {
    /// The whole name, `home.garden`.
    public var project: String
    /// 0 for a top-level project, 1 for its sub-projects, and so on.
    public var depth: Int
    /// Its pending todos and those of every sub-project.
    public var pending: Int
    /// Its own pending todos, without its sub-projects'.
    public var own: Int

    public init(project: String, depth: Int, pending: Int, own: Int) {
        self.project = project
        self.depth = depth
        self.pending = pending
        self.own = own
    }

    /// The last part of the name: `garden` of `home.garden`.
    public var leaf: Substring { project.split(separator: ".").last ?? Substring(project) }
}

/// The tree of `counts` (each project's own pending todos): every project
/// and each project above it (`home` for `home.garden`, even with no todo
/// of its own), parents before their children, siblings by name.
public func selectProjectTree(counts: [String: Int]) -> [ProjectTreeRow] {
    var own: [String: Int] = [:]
    var total: [String: Int] = [:]
    for (project, count) in counts {
        own[project, default: 0] += count
        for name in TodoProject.lineage(of: project) { total[name, default: 0] += count }
    }
    // Sorted part by part, so `home.garden` follows `home` before `home-work`.
    let names = total.keys.sorted { $0.split(separator: ".").lexicographicallyPrecedes($1.split(separator: ".")) }
    return names.map { name in
        ProjectTreeRow(
            project: name, depth: name.split(separator: ".").count - 1, pending: total[name] ?? 0, own: own[name] ?? 0
        )
    }
}

/// Each project's own count of pending todos among `items` at `now`, those
/// past their until date left out (waiting ones count): what storage answers
/// with one query, for `selectProjectTree`.
public func selectPendingProjectCounts(items: [TodoItem], now: Date, timeZone: TimeZone) -> [String: Int] {
    var counts: [String: Int] = [:]
    for item in items where !item.isDone && !(item.until?.isOverdue(now: now.roundedToMilliseconds, in: timeZone) ?? false) {
        if let project = item.project { counts[project, default: 0] += 1 }
    }
    return counts
}
