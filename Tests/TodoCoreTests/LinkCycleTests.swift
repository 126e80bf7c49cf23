import Foundation
import PropertyBased
import Testing
import TodoCore

/// The cycle a change of links would close, found through the todos it
/// changes: the same cycle a walk from each of them finds, in linear time.
@Suite("Cycles through the changed todos")
struct LinkCycleTests {
    static func id(_ number: Int) -> UUID {
        UUID(parsing: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// The plain definition: from each start in order, breadth first, until
    /// the start comes again; the todos around the first cycle found.
    static func walkedFromEach(_ nodes: [TodoLinks.Node], _ relation: TodoLinks.Relation, through ids: [UUID]) -> [UUID]? {
        var targets: [UUID: [UUID]] = [:]
        for node in nodes { targets[node.id] = node.targets(relation) }
        for start in ids {
            var cameFrom: [UUID: UUID] = [:]
            var level = [start]
            while !level.isEmpty {
                var next: [UUID] = []
                for id in level {
                    for target in targets[id] ?? [] {
                        if target == start {
                            var path = [id]
                            while let previous = cameFrom[path[0]] { path.insert(previous, at: 0) }
                            return path + [start]
                        }
                        guard cameFrom[target] == nil, target != start else { continue }
                        cameFrom[target] = id
                        next.append(target)
                    }
                }
                level = next
            }
        }
        return nil
    }

    /// Up to nine todos, each with a parent or none (0) and a few blockers,
    /// among ten IDs (so some links name a todo that is not there).
    static let links = Gen.int(in: 0...10).array(of: 0...3).array(of: 1...9)
    static let starts = Gen.int(in: 1...10).array(of: 0...5)

    @Test func theCycleFoundIsTheOneAWalkFromEachStartFinds() async {
        await propertyCheck(count: 1000, input: Self.links, Self.starts) { links, starts in
            let nodes = links.enumerated().map { index, targets in
                TodoLinks.Node(
                    id: Self.id(index + 1), parent: targets.first.flatMap { $0 == 0 ? nil : Self.id($0) },
                    blockedBy: targets.dropFirst().filter { $0 != 0 }.map(Self.id)
                )
            }
            let through = starts.map(Self.id)
            for relation in [TodoLinks.Relation.parent, .blockedBy] {
                #expect(TodoLinks.cycle(in: nodes, relation, through: through) == Self.walkedFromEach(nodes, relation, through: through),
                        "\(relation) through \(starts) in \(links)")
            }
        }
    }

    /// An import of 50,000 todos, each the subtask of the one before, checks
    /// every one of them; closed at its end, the one cycle is named.
    @Test func aLongChainIsCheckedThroughEveryTodo() {
        let count = 50_000
        var nodes = (1...count).map { TodoLinks.Node(id: Self.id($0), parent: $0 == 1 ? nil : Self.id($0 - 1), blockedBy: []) }
        let all = nodes.map(\.id)
        #expect(TodoLinks.cycle(in: nodes, .parent, through: all) == nil)
        nodes[0].parent = Self.id(count)
        let cycle = TodoLinks.cycle(in: nodes, .parent, through: all)
        #expect(cycle?.count == count + 1)
        #expect(cycle?.first == Self.id(1) && cycle?.last == Self.id(1) && cycle?[1] == Self.id(count))
    }

    /// An error names a short cycle whole, and a long one by its ends.
    @Test func aLongCycleIsNamedByItsEnds() {
        let short = ["a", "b", "c", "d", "e", "f", "g", "a"]
        #expect(TodoLinks.described(short, .parent) { $0 } == "a subtask of b subtask of c subtask of d subtask of e subtask of f subtask of g subtask of a")
        let long = (1...9).map(String.init) + ["1"]
        #expect(TodoLinks.described(long, .blockedBy) { "#" + $0 }
            == "#1 blocked by #2 blocked by #3 blocked by #4 blocked by … 3 more … blocked by #8 blocked by #9 blocked by #1")
    }

    /// The tree of a chain 50,000 deep: each todo one level under the one before.
    @Test func aLongChainIsATreeAsDeep() {
        let count = 50_000
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let items = (1...count).map {
            TodoItem(id: Self.id($0), text: "step \($0)", createdAt: start, parent: $0 == 1 ? nil : Self.id($0 - 1))
        }
        let rows = selectTree(items.reversed())
        #expect(rows.map(\.item.id) == items.map(\.id))
        #expect(rows.map(\.depth) == Array(0..<count))
    }
}
