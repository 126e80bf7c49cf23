import Foundation

/// How todos point at each other: a subtask at its parent (`--parent`), a
/// blocked todo at its blockers (`--blocked-by`). Each relation must stay
/// free of cycles: a todo cannot be its own ancestor, nor wait on itself.
public enum TodoLinks {
    /// The two relations, checked for cycles each on its own: a subtask may
    /// block its parent (the parent waits for it), and that is no cycle.
    public enum Relation: String, Sendable, Hashable {
        case parent = "subtask of"
        case blockedBy = "blocked by"
    }

    /// One todo's links, as storage lists the todos that have any.
    public struct Node: Sendable, Hashable {
        public var id: UUID
        public var parent: UUID?
        public var blockedBy: [UUID]

        public init(id: UUID, parent: UUID?, blockedBy: [UUID]) {
            self.id = id
            self.parent = parent
            self.blockedBy = blockedBy
        }

        public init(_ item: TodoItem) {
            self.init(id: item.id, parent: item.parent, blockedBy: item.blockedBy)
        }

        public func targets(_ relation: Relation) -> [UUID] {
            switch relation {
            case .parent: parent.map { [$0] } ?? []
            case .blockedBy: blockedBy
            }
        }
    }

    /// A cycle as an error names it: each todo `name`d, the relation between
    /// them. Of a cycle of more than eight, the first four and the last three
    /// are named, with how many are left out between.
    public static func described<Todo>(_ cycle: [Todo], _ relation: Relation, name: (Todo) -> String) -> String {
        let link = " \(relation.rawValue) "
        guard cycle.count > 8 else { return cycle.map(name).joined(separator: link) }
        return cycle.prefix(4).map(name).joined(separator: link) + link + "… \(cycle.count - 7) more …" + link
            + cycle.suffix(3).map(name).joined(separator: link)
    }

    /// Blockers as a todo holds them: each once, sorted by ID as text.
    public static func normalized(_ ids: [UUID]) -> [UUID] {
        guard ids.count > 1 else { return ids }
        return Set(ids).sorted { $0.lowercasedString < $1.lowercasedString }
    }

    /// The cycle `relation` would close if the todos were as `nodes` say
    /// (the todos without links may be left out): the todos around it, the
    /// first repeated at the end (`a → b → a`); nil if there is none.
    /// Among several, the one through the smallest ID, found the same way
    /// on every machine.
    public static func cycle(in nodes: [Node], _ relation: Relation) -> [UUID]? {
        var targets: [UUID: [UUID]] = [:]
        for node in nodes { targets[node.id] = node.targets(relation) }
        // A depth-first walk with a stack of its own (a chain of many
        // thousands of blockers would overflow a recursion's): the path now,
        // each todo on it with the next of its targets to follow.
        var finished = Set<UUID>()
        let roots = targets.keys.map { (text: $0.lowercasedString, id: $0) }.sorted { $0.text < $1.text }.map(\.id)
        for root in roots {
            guard finished.insert(root).inserted else { continue }
            var path: [(id: UUID, next: Int)] = [(root, 0)]
            var onPath: [UUID: Int] = [root: 0]
            while let (id, next) = path.last {
                let out = targets[id] ?? []
                guard next < out.count else {
                    path.removeLast()
                    onPath[id] = nil
                    continue
                }
                path[path.count - 1].next += 1
                let target = out[next]
                if let start = onPath[target] { return path[start...].map(\.id) + [target] }
                guard finished.insert(target).inserted else { continue }
                onPath[target] = path.count
                path.append((target, 0))
            }
        }
        return nil
    }

    /// The cycle `relation` makes through one of the todos `ids` names, if
    /// any: the first found from them (in their order), the todos around it
    /// with the first repeated at the end. A cycle elsewhere (one an import or
    /// an undo left, which the next sync breaks) is none of these todos' doing.
    ///
    /// An import checks every todo it brings: the todos on a cycle are found
    /// first, in one pass over what `ids` reach, so only a start known to be
    /// on one is walked from (a walk from each of a chain's 50,000 todos up
    /// the chain was quadratic). An edit reaches only its todos' ancestors
    /// and blockers.
    public static func cycle(in nodes: [Node], _ relation: Relation, through ids: [UUID]) -> [UUID]? {
        var targets: [UUID: [UUID]] = [:]
        for node in nodes { targets[node.id] = node.targets(relation) }
        let cyclic = onCycles(targets, from: ids)
        guard let start = ids.first(where: cyclic.contains) else { return nil }
        // Breadth first from `start`, each todo's way back remembered, until
        // `start` comes again: the shortest cycle through it.
        var cameFrom: [UUID: UUID] = [:]
        var level = [start]
        while !level.isEmpty {
            var next: [UUID] = []
            for id in level {
                for target in targets[id] ?? [] {
                    if target == start {
                        var path = [id]
                        while let previous = cameFrom[path[path.count - 1]] { path.append(previous) }
                        return path.reversed() + [start]
                    }
                    guard cameFrom[target] == nil, target != start else { continue }
                    cameFrom[target] = id
                    next.append(target)
                }
            }
            level = next
        }
        return nil
    }

    /// The todos `roots` reach that are on some cycle of `targets`: those in
    /// a strongly connected component of two or more, and those linked to
    /// themselves. Tarjan's algorithm, with a stack of its own; a todo's
    /// component lies among what it reaches, so each found is whole.
    static func onCycles(_ targets: [UUID: [UUID]], from roots: [UUID]) -> Set<UUID> {
        var order: [UUID: (index: Int, low: Int)] = [:]
        var component: [UUID] = []
        var inComponent = Set<UUID>()
        var found = Set<UUID>()
        for root in roots where order[root] == nil {
            var path: [(id: UUID, next: Int)] = []
            func enter(_ id: UUID) {
                order[id] = (order.count, order.count)
                component.append(id)
                inComponent.insert(id)
                path.append((id, 0))
            }
            enter(root)
            while let (id, next) = path.last {
                let out = targets[id] ?? []
                if next < out.count {
                    path[path.count - 1].next += 1
                    let target = out[next]
                    if let seen = order[target] {
                        if inComponent.contains(target) { order[id]!.low = min(order[id]!.low, seen.index) }
                    } else {
                        enter(target)
                    }
                    continue
                }
                path.removeLast()
                let own = order[id]!
                if let above = path.last?.id { order[above]!.low = min(order[above]!.low, own.low) }
                guard own.low == own.index else { continue }
                var members: [UUID] = []
                while let top = component.popLast() {
                    inComponent.remove(top)
                    members.append(top)
                    if top == id { break }
                }
                if members.count > 1 || out.contains(id) { found.formUnion(members) }
            }
        }
        return found
    }

    /// `nodes` with every cycle broken as every machine breaks it alike: in
    /// each cycle found, the link from the todo with the greatest ID goes.
    /// Returns the todos whose links changed, with their links as they are
    /// now; after a sync brought two links that each machine allowed alone
    /// (`a` under `b` here, `b` under `a` there).
    public static func breakingCycles(in nodes: [Node]) -> [Node] {
        var current = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var changed = Set<UUID>()
        for relation in [Relation.parent, .blockedBy] {
            while let cycle = cycle(in: Array(current.values), relation) {
                let links = zip(cycle, cycle.dropFirst())
                guard let (from, to) = links.max(by: { $0.0.lowercasedString < $1.0.lowercasedString }),
                      var node = current[from] else { break }
                switch relation {
                case .parent: node.parent = nil
                case .blockedBy: node.blockedBy.removeAll { $0 == to }
                }
                current[from] = node
                changed.insert(from)
            }
        }
        return changed.compactMap { current[$0] }.sorted { $0.id.lowercasedString < $1.id.lowercasedString }
    }
}

/// The subtasks of the todos `ids` names in `items`, theirs, and so on down,
/// each once; parents before their subtasks, in `items`' order among
/// siblings. What storage answers for `subtasks(of:)`.
public func selectSubtasks(items: [TodoItem], of ids: [TodoItem.ID]) -> [TodoItem] {
    var children: [UUID: [TodoItem]] = [:]
    for item in items {
        if let parent = item.parent { children[parent, default: []].append(item) }
    }
    var seen = Set(ids)
    var found: [TodoItem] = []
    var level = ids
    while !level.isEmpty {
        var next: [UUID] = []
        for id in level {
            for child in children[id] ?? [] where seen.insert(child.id).inserted {
                found.append(child)
                next.append(child.id)
            }
        }
        level = next
    }
    return found
}

/// The todos one todo is linked with, as `todo show` lists them.
public struct TodoRelatives: Sendable, Hashable {
    /// Its parent, if it has one that still exists.
    public var parent: TodoItem?
    /// The todos that block it that still exist, done ones too.
    public var blockers: [TodoItem]
    /// Its direct subtasks.
    public var subtasks: [TodoItem]
    /// The blockers it names that are gone (they block nothing; `--unblock`
    /// takes them away).
    public var goneBlockers: [UUID]

    public init(parent: TodoItem? = nil, blockers: [TodoItem] = [], subtasks: [TodoItem] = [], goneBlockers: [UUID] = []) {
        self.parent = parent
        self.blockers = blockers
        self.subtasks = subtasks
        self.goneBlockers = goneBlockers
    }
}

extension TodoItem {
    /// The todo as it is shown and exported: a parent that no longer exists
    /// (one of `absent`) is none. Deleting a parent leaves its subtasks on
    /// their own; the link itself stays, so undoing the delete puts them back.
    public func showing(absentParents absent: Set<TodoItem.ID>) -> TodoItem {
        guard let parent, absent.contains(parent) else { return self }
        var shown = self
        shown.parent = nil
        return shown
    }
}
