import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport

@MainActor
@Suite("Windows, counts, undo and outside changes")
struct TodoWindowTests {
    let fixed = FixedEnvironment()

    /// `count` todos, the first one oldest, texts "todo 1"…; every third done.
    func storage(_ count: Int) -> (InMemoryStorage, [TodoItem]) {
        let items = (1...count).map { n in
            TodoItem(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", 1000 + n))!,
                text: "todo \(n)", isDone: n % 3 == 0, createdAt: fixed.date(n)
            )
        }
        return (InMemoryStorage(items: items), items)
    }

    @Test func aWindowHoldsTheRowsAroundItsAnchorAndSaysWhatLiesBeyond() async throws {
        let (storage, _) = storage(20)
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        logic.setFilter(.all)
        try await logic.loadWindow(around: .top, newer: 0, older: 5)
        #expect(state.window.rows.map(\.item.text) == ["todo 20", "todo 19", "todo 18", "todo 17", "todo 16"])
        #expect(!state.window.hasNewer && state.window.hasOlder)

        let anchor = state.window.rows[3].position
        try await logic.loadWindow(around: .position(anchor), newer: 2, older: 2)
        #expect(state.window.rows.map(\.item.text) == ["todo 19", "todo 18", "todo 17", "todo 16"])
        #expect(state.window.hasNewer && state.window.hasOlder)

        try await logic.loadWindow(around: .bottom, newer: 3, older: 0)
        #expect(state.window.rows.map(\.item.text) == ["todo 3", "todo 2", "todo 1"])
        #expect(state.window.hasNewer && !state.window.hasOlder)
    }

    @Test func aWindowFollowsTheFilterAndTheQuery() async throws {
        let (storage, _) = storage(12)
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.setQuery("todo 1", remember: false)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        // Pending is the filter a view starts with: 12 and 3 are done.
        #expect(state.window.rows.map(\.item.text) == ["todo 11", "todo 10", "todo 1"])
        #expect(await storage.storedQuery == "")
        logic.setFilter(.done)
        #expect(selectWindowRows(state: state).isEmpty)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.rows.map(\.item.text) == ["todo 12"])
    }

    @Test func countsCoverEveryTodoWhateverTheFilter() async throws {
        let (storage, _) = storage(9)
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.loadCounts()
        #expect(state.counts == TodoCounts(pending: 6, done: 3))
    }

    @Test func onlyAChangeFromElsewhereIsReported() async throws {
        let (storage, _) = storage(3)
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        #expect(try await logic.storageChangedElsewhere() == false)
        try await logic.addTodo(text: "mine")
        #expect(try await logic.storageChangedElsewhere() == false)
        await storage.changeElsewhere(insert: [TodoItem(id: UUID(), text: "theirs", createdAt: fixed.date(50))])
        #expect(try await logic.storageChangedElsewhere() == true)
        #expect(try await logic.storageChangedElsewhere() == false)
    }

    @Test func undoTakesBackAddEditToggleAndDeleteLastFirst() async throws {
        let storage = InMemoryStorage()
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        logic.setFilter(.all)
        let milk = try await logic.addTodo(text: "milk")
        let bread = try await logic.addTodo(text: "bread")
        try await logic.editTodo(idPrefix: milk.idString, text: "oat milk")
        try await logic.setDone(true, idPrefixes: [bread.idString])
        try await logic.deleteTodos(idPrefixes: [milk.idString])
        #expect(try await logic.undoHistory(limit: 10).map(\.command) == ["rm", "done", "edit", "add", "add"])

        #expect(try await logic.undo().summary == "delete of “oat milk”")
        #expect(await storage.items.map(\.text).sorted() == ["bread", "oat milk"])
        // A todo brought back shows once the window reloads.
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.rows.map(\.item.text) == ["bread", "oat milk"])
        // The loaded rows show the next undos at once.
        #expect(try await logic.undo().summary == "done mark of “bread”")
        #expect(await storage.items.first { $0.id == bread.id }?.isDone == false)
        #expect(state.window.rows.first { $0.id == bread.id }?.item.isDone == false)
        #expect(try await logic.undo().summary == "edit of “oat milk”")
        // Never synced: back exactly as it was, as if the edit had never been made.
        #expect(await storage.items.first { $0.id == milk.id } == milk)
        #expect(state.window.rows.map(\.item.text) == ["bread", "milk"])
        try await logic.undo()
        try await logic.undo()
        #expect(await storage.items.isEmpty)
        #expect(state.window.rows.isEmpty)
        await #expect(throws: TodoError.nothingToUndo) { try await logic.undo() }
        #expect(state.error == .nothingToUndo)
    }

    @Test func anUndoOfATodoChangedElsewhereIsRefusedAndKept() async throws {
        let storage = InMemoryStorage()
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        let milk = try await logic.addTodo(text: "milk")
        try await logic.editTodo(idPrefix: milk.idString, text: "oat milk")
        await storage.changeElsewhere(delete: [milk.id])
        await #expect(throws: TodoError.undoConflict(change: "edit of “oat milk”", text: "oat milk", id: "00000000")) {
            try await logic.undo()
        }
        #expect(try await logic.undoHistory(limit: 10).count == 2)
        #expect(try await logic.undo(force: true).summary == "edit of “oat milk”")
        #expect(await storage.items.map(\.text) == ["milk"])
    }

    @Test func changesReachTheLoadedWindowAtOnce() async throws {
        let (storage, items) = storage(4)
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        try await logic.editTodo(idPrefix: items[0].idString, text: "first")
        #expect(state.window.rows.last?.item.text == "first")
        try await logic.deleteTodos(idPrefixes: [items[0].idString])
        #expect(state.window.rows.map(\.item.text) == ["todo 4", "todo 2"])
    }

    @Test func aNewQueryOrFilterLeavesTheWindowIncompleteUntilItsOwnLoads() async throws {
        let (storage, _) = storage(4)
        let state = TodoState()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.isComplete)
        try await logic.setQuery("todo", remember: false)
        #expect(state.window.isComplete == false)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.isComplete)
        try await logic.setQuery("todo", remember: false)
        #expect(state.window.isComplete, "the same query again changes nothing")
        logic.setFilter(.all)
        #expect(state.window.isComplete == false)
        // A quick load that stops early stays incomplete; a complete one ends it.
        await storage.slowSearches(quickLimit: 1, completeDelay: nil)
        try await logic.setQuery("todo 1", remember: false)
        try await logic.loadWindow(around: .top, newer: 0, older: 10, effort: .quick)
        #expect(state.window.isComplete == false)
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.isComplete)
        #expect(state.window.rows.map(\.item.text) == ["todo 1"])
    }
}
