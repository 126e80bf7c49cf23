import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport

/// Subtasks and blockers: the links, their cycles, the tree a list shows,
/// and what completing a parent does.
@MainActor
@Suite("Subtasks and blockers")
struct SubtaskTests {
    let fixed = FixedEnvironment()
    let storage = InMemoryStorage()
    let state = TodoState()

    var logic: TodoLogic {
        TodoLogic(state: state, storage: storage, environment: fixed.environment)
    }

    static func id(_ number: Int) -> UUID {
        UUID(parsing: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    // MARK: - Cycles

    @Test func aCycleIsFoundWithTheTodosAroundIt() {
        let nodes = [
            TodoLinks.Node(id: Self.id(1), parent: Self.id(2), blockedBy: []),
            TodoLinks.Node(id: Self.id(2), parent: Self.id(3), blockedBy: [Self.id(1)]),
            TodoLinks.Node(id: Self.id(3), parent: Self.id(1), blockedBy: []),
        ]
        #expect(TodoLinks.cycle(in: nodes, .parent) == [Self.id(1), Self.id(2), Self.id(3), Self.id(1)])
        // Blocked by its subtask: no cycle of blockers.
        #expect(TodoLinks.cycle(in: nodes, .blockedBy) == nil)
        #expect(TodoLinks.cycle(in: Array(nodes.prefix(2)), .parent) == nil)
    }

    /// A chain of 20,000 blockers (an import of another tool's tasks can
    /// bring one) is walked without running out of stack, and closed at its
    /// end it is the one cycle found.
    @Test func aVeryLongChainIsWalkedWithoutRecursion() {
        let count = 20_000
        var nodes = (1..<count).map { TodoLinks.Node(id: Self.id($0), parent: nil, blockedBy: [Self.id($0 + 1)]) }
        #expect(TodoLinks.cycle(in: nodes, .blockedBy) == nil)
        nodes.append(TodoLinks.Node(id: Self.id(count), parent: nil, blockedBy: [Self.id(1)]))
        let cycle = TodoLinks.cycle(in: nodes, .blockedBy)
        #expect(cycle?.count == count + 1)
        #expect(cycle?.first == Self.id(1) && cycle?.last == Self.id(1))
        #expect(TodoLinks.breakingCycles(in: nodes).map(\.id) == [Self.id(count)])
    }

    /// Two replicas each add one link, each allowed alone: every machine
    /// breaks the cycle alike, dropping the link from the greatest ID.
    @Test func cyclesAreBrokenAlikeEverywhere() {
        let nodes = [
            TodoLinks.Node(id: Self.id(5), parent: Self.id(9), blockedBy: [Self.id(9)]),
            TodoLinks.Node(id: Self.id(9), parent: Self.id(5), blockedBy: [Self.id(5), Self.id(7)]),
        ]
        let repaired = TodoLinks.breakingCycles(in: nodes)
        #expect(repaired == [TodoLinks.Node(id: Self.id(9), parent: nil, blockedBy: [Self.id(7)])])
        #expect(TodoLinks.breakingCycles(in: nodes.reversed()) == repaired)
        #expect(TodoLinks.breakingCycles(in: [TodoLinks.Node(id: Self.id(1), parent: Self.id(2), blockedBy: [])]).isEmpty)
    }

    @Test func aLinkThatWouldCloseACycleIsRefusedNamingIt() async throws {
        let paint = try await logic.addTodo(text: "paint the room")
        let buy = try await logic.addTodo(text: "buy paint", fields: TodoEdit(parent: .some(paint.idString)))
        let tape = try await logic.addTodo(text: "tape", fields: TodoEdit(parent: .some(buy.idString), addBlockers: [buy.idString]))
        let before = await storage.items
        let error = await #expect(throws: TodoError.self) {
            try await logic.editTodo(idPrefix: paint.idString, edit: TodoEdit(parent: .some(tape.idString)))
        }
        guard case let .linkCycle(relation, todos)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(relation == .parent)
        #expect(todos.map(\.text) == ["paint the room", "tape", "buy paint", "paint the room"])
        #expect(error?.description.hasPrefix("refused: that would make a cycle, ") == true)
        await #expect(throws: TodoError.self) {
            try await logic.editTodo(idPrefix: buy.idString, edit: TodoEdit(addBlockers: [tape.idString]))
        }
        await #expect(throws: TodoError.invalidField(.ownParent)) {
            try await logic.editTodo(idPrefix: buy.idString, edit: TodoEdit(parent: .some(buy.idString)))
        }
        await #expect(throws: TodoError.invalidField(.blocksItself)) {
            try await logic.editTodo(idPrefix: buy.idString, edit: TodoEdit(addBlockers: [buy.idString]))
        }
        await #expect(throws: TodoError.notFound("ffff")) {
            try await logic.addTodo(text: "x", fields: TodoEdit(parent: .some("ffff")))
        }
        #expect(await storage.items == before, "nothing written")
    }

    // MARK: - The tree

    @Test func subtasksGoUnderTheirListedParent() {
        let now = fixed.date(1)
        let parent = TodoItem(id: Self.id(1), text: "parent", createdAt: now)
        let child = TodoItem(id: Self.id(2), text: "child", createdAt: now, parent: Self.id(1))
        let grandchild = TodoItem(id: Self.id(3), text: "grandchild", createdAt: now, parent: Self.id(2))
        let orphan = TodoItem(id: Self.id(4), text: "orphan", createdAt: now, parent: Self.id(99))
        let other = TodoItem(id: Self.id(5), text: "other", createdAt: now)
        // Newest first: subtasks come before their parents in list order.
        let rows = selectTree([grandchild, orphan, child, other, parent])
        #expect(rows.map(\.item.text) == ["orphan", "other", "parent", "child", "grandchild"])
        #expect(rows.map(\.depth) == [0, 0, 0, 1, 2])
        #expect(rows.map(\.subtasks) == [0, 0, 1, 1, 0])
        // Without its parent listed, a subtask stands where its order puts it.
        #expect(selectTree([grandchild, other]).map(\.depth) == [0, 0])
    }

    // MARK: - Completing a parent

    @Test func completingAParentWithOpenSubtasksAsksFirst() async throws {
        let paint = try await logic.addTodo(text: "paint the room")
        let buy = try await logic.addTodo(text: "buy paint", fields: TodoEdit(parent: .some(paint.idString)))
        let brush = try await logic.addTodo(text: "clean the brush", fields: TodoEdit(parent: .some(buy.idString)))
        let error = await #expect(throws: TodoError.self) { try await logic.setDone(true, idPrefixes: [paint.idString]) }
        #expect(error == .openSubtasks(parent: IDMatch(shortID: String(paint.idString.prefix(8)), text: "paint the room"), open: 2))
        #expect(await storage.items.allSatisfy { !$0.isDone }, "nothing done")
        // Named together, nothing is left open: no question.
        let changed = try await logic.setDone(true, idPrefixes: [paint.idString, buy.idString, brush.idString])
        #expect(changed.count == 3)
        try await logic.setDone(false, idPrefixes: [paint.idString, buy.idString, brush.idString])
        let all = try await logic.setDoneBringingNext(true, idPrefixes: [paint.idString], withSubtasks: true)
        #expect(Set(all.changed.map(\.text)) == ["paint the room", "buy paint", "clean the brush"])
        #expect(await storage.items.allSatisfy(\.isDone))
    }

    /// A repeating parent's next occurrence comes with fresh copies of its
    /// subtasks, with ids derived from it: a second machine completing the
    /// same occurrence makes the very same todos.
    @Test func aRepeatingParentBringsFreshSubtasksOnce() async throws {
        let weekly = try await logic.addTodo(text: "clean the flat", fields: TodoEdit(
            due: .some(.day(CalendarDay(parsing: "2026-11-20")!)), recurrence: .some(TodoRepeat(parsing: "weekly"))
        ))
        let kitchen = try await logic.addTodo(text: "kitchen", fields: TodoEdit(parent: .some(weekly.idString)))
        let floor = try await logic.addTodo(text: "floor", fields: TodoEdit(parent: .some(weekly.idString), addBlockers: [kitchen.idString]))
        try await logic.setDone(true, idPrefixes: [kitchen.idString])
        let (_, next, _) = try await logic.setDoneBringingNext(true, idPrefixes: [weekly.idString], withSubtasks: true)
        #expect(next.map(\.text) == ["clean the flat", "floor", "kitchen"] || next.map(\.text) == ["clean the flat", "kitchen", "floor"])
        let occurrence = next[0]
        let copies = next.dropFirst()
        #expect(copies.allSatisfy { $0.parent == occurrence.id && !$0.isDone })
        let kitchenCopy = try #require(copies.first { $0.text == "kitchen" })
        let floorCopy = try #require(copies.first { $0.text == "floor" })
        #expect(floorCopy.blockedBy == [kitchenCopy.id], "a blocker among the subtasks points at its copy")
        // Another machine completing the same occurrence on another day derives the same ids.
        let completed = weekly.marking(done: true, at: fixed.date(500))
        let again = try #require(completed.nextOccurrence(at: fixed.date(500), in: fixed.environment.timeZone))
        let againCopies = completed.subtaskCopies([kitchen, floor], under: again, at: fixed.date(500), in: fixed.environment.timeZone)
        #expect(again.id == occurrence.id)
        #expect(Set(againCopies.map(\.id)) == Set(copies.map(\.id)))
        #expect(floor.id != floorCopy.id)
    }

    /// A repeating subtask: on its own, its next occurrence stays under the
    /// parent; completed with its repeating parent, it comes back once, as
    /// the parent's copy; and of its chain only the latest is copied.
    @Test func aRepeatingSubtaskComesBackOnce() async throws {
        let due = TodoEdit(due: .some(.day(CalendarDay(parsing: "2026-11-20")!)), recurrence: .some(TodoRepeat(parsing: "weekly")))
        let weekly = try await logic.addTodo(text: "clean the flat", fields: due)
        var daily = due
        daily.parent = .some(weekly.idString)
        let floor = try await logic.addTodo(text: "floor", fields: daily)
        let (_, alone, _) = try await logic.setDoneBringingNext(true, idPrefixes: [floor.idString])
        #expect(alone.map(\.parent) == [weekly.id], "its next occurrence stays a subtask")
        let (_, next, _) = try await logic.setDoneBringingNext(true, idPrefixes: [weekly.idString], withSubtasks: true)
        #expect(next.map(\.text).sorted() == ["clean the flat", "floor"], "one copy of the floor, not two")
        let open = await storage.items.filter { !$0.isDone }
        #expect(open.map(\.text).sorted() == ["clean the flat", "floor"])
    }

    /// A cycle that is not the edit's doing (an import or an undo left it)
    /// does not stop links elsewhere.
    @Test func aCycleElsewhereDoesNotStopAnEdit() async throws {
        let a = TodoItem(id: Self.id(1), text: "a", createdAt: fixed.date(1), parent: Self.id(2))
        let b = TodoItem(id: Self.id(2), text: "b", createdAt: fixed.date(2), parent: Self.id(1))
        let c = TodoItem(id: Self.id(3), text: "c", createdAt: fixed.date(3))
        let d = TodoItem(id: Self.id(4), text: "d", createdAt: fixed.date(4))
        let storage = InMemoryStorage(items: [a, b, c, d])
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.editTodo(idPrefix: c.idString, edit: TodoEdit(parent: .some(d.idString)))
        try await logic.editTodo(idPrefix: a.idString, edit: TodoEdit(addBlockers: [c.idString]))
        try await logic.editTodo(idPrefix: d.idString, edit: TodoEdit(parent: .some(a.idString)))
        // A cycle of its own making is still refused.
        await #expect(throws: TodoError.self) {
            try await logic.editTodo(idPrefix: d.idString, edit: TodoEdit(parent: .some(c.idString)))
        }
        #expect(TodoLinks.cycle(in: [TodoLinks.Node(a), TodoLinks.Node(b)], .parent, through: [Self.id(3)]) == nil)
        #expect(TodoLinks.cycle(in: [TodoLinks.Node(a), TodoLinks.Node(b)], .parent, through: [Self.id(2)]) == [Self.id(2), Self.id(1), Self.id(2)])
    }

    /// A blocker deleted since is still taken away by its prefix.
    @Test func aDeletedBlockerCanBeUnblocked() async throws {
        let blocker = try await logic.addTodo(text: "blocker")
        let blocked = try await logic.addTodo(text: "blocked", fields: TodoEdit(addBlockers: [blocker.idString]))
        try await logic.deleteTodos(idPrefixes: [blocker.idString])
        let relatives = try await logic.relatives(of: try #require(await storage.items.first))
        #expect(relatives.goneBlockers == [blocker.id])
        let edited = try await logic.editTodo(idPrefix: blocked.idString, edit: TodoEdit(removeBlockers: [blocker.idString]))
        #expect(edited.blockedBy.isEmpty)
    }

    /// A subtask whose parent is deleted (here, or on another machine)
    /// stands on its own: it is neither deleted nor hidden.
    @Test func aSubtaskOutlivesItsParent() async throws {
        let paint = try await logic.addTodo(text: "paint the room")
        let buy = try await logic.addTodo(text: "buy paint", fields: TodoEdit(parent: .some(paint.idString)))
        try await logic.deleteTodos(idPrefixes: [paint.idString])
        let items = await storage.items
        #expect(items.map(\.id) == [buy.id])
        #expect(selectTree(items).map(\.depth) == [0])
        // And completing it asks nothing: it has no open subtasks.
        try await logic.setDone(true, idPrefixes: [buy.idString])
    }

    @Test func blockersCountOnlyWhileOpen() {
        let now = fixed.date(1)
        let blocker = TodoItem(id: Self.id(1), text: "blocker", createdAt: now)
        let blocked = TodoItem(id: Self.id(2), text: "blocked", createdAt: now, blockedBy: [Self.id(1), Self.id(77)])
        #expect(BlockCounts([blocker, blocked]).isBlocked(blocked))
        #expect(BlockCounts([blocker, blocked]).blocking == [Self.id(1): 1, Self.id(77): 1])
        #expect(!BlockCounts([blocker.marking(done: true, at: now), blocked]).isBlocked(blocked), "a done blocker blocks nothing")
        #expect(!BlockCounts([blocked]).isBlocked(blocked), "a deleted blocker blocks nothing")
        #expect(BlockCounts([blocker, blocked.marking(done: true, at: now)]).blocking.isEmpty, "a done todo blocks nothing")
    }
}
