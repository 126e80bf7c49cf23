import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport

@MainActor
@Suite("TodoLogic over in-memory storage")
struct TodoLogicTests {
    let fixed = FixedEnvironment()
    let storage = InMemoryStorage()
    let state = TodoState()

    var logic: TodoLogic {
        TodoLogic(state: state, storage: storage, environment: fixed.environment)
    }

    @Test func addTodoStoresItAndShowsItAtTheTop() async throws {
        // Given an older todo and a query the user typed that it does not match
        let older = TodoItem(id: UUID(), text: "bread", createdAt: Date(millisecondsSince1970: 1))
        let storage = InMemoryStorage(items: [older])
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        try await logic.setQuery("mi")
        // When they add a todo
        let item = try await logic.addTodo(text: "  buy milk ")
        // Then it is stored, the query is cleared and "" is remembered, and
        // the view's next window shows it on top
        #expect(item.text == "buy milk")
        #expect(item.idString == "00000000-0000-4000-8000-000000000001")
        #expect(item.createdAt == fixed.date(1))
        #expect(await storage.items == [older, item])
        #expect(state.query == "")
        #expect(await storage.storedQuery == "")
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        #expect(state.window.rows.map(\.item) == [item, older])
    }

    /// `todo rm 9` from a numbered-list habit: a prefix shorter than IDs are
    /// shown is refused by every command that changes todos, listing what it
    /// matches, and nothing changes.
    @Test(arguments: ["0", "00", "000"])
    func aPrefixShorterThanShownIDsChangesNothing(prefix: String) async throws {
        let milk = try await logic.addTodo(text: "milk")
        let bread = try await logic.addTodo(text: "bread")
        let refused = TodoError.prefixTooShort(prefix, matches: 2, candidates: [
            IDMatch(shortID: "00000000-0000-4000-8000-000000000001", text: "milk"),
            IDMatch(shortID: "00000000-0000-4000-8000-000000000002", text: "bread"),
        ])
        await #expect(throws: refused) { try await logic.deleteTodos(idPrefixes: [prefix]) }
        await #expect(throws: refused) { try await logic.setDone(true, idPrefixes: [milk.idString, prefix]) }
        await #expect(throws: refused) { try await logic.editTodo(idPrefix: prefix, text: "oat milk") }
        #expect(await storage.items.sorted { $0.text < $1.text } == [bread, milk])
        #expect(refused.description.hasPrefix("'\(prefix)' is shorter than the 4 characters IDs are shown with"))
    }

    @Test func addingBlankTextFailsIntoTheStateAndStoresNothing() async throws {
        try await logic.setQuery("mi")
        await #expect(throws: TodoError.emptyText) { try await logic.addTodo(text: "  ") }
        #expect(state.error == .emptyText)
        #expect(await storage.items.isEmpty)
        #expect(state.query == "mi", "a failed add keeps the query")
    }

    @Test func aWindowLoadFailureReachesTheStateAndKeepsTheRows() async throws {
        let milk = try await logic.addTodo(text: "milk")
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        await storage.fail(with: .failed("disk I/O error"))
        await #expect(throws: TodoError.failed("disk I/O error")) {
            try await logic.loadWindow(around: .top, newer: 0, older: 10)
        }
        #expect(state.error == .failed("disk I/O error"))
        #expect(state.window.rows.map(\.item) == [milk])
    }

    @Test func storageFailureOnAddLeavesTheStateUnchanged() async throws {
        try await logic.setQuery("mi")
        await storage.fail(with: .failed("database is read-only"))
        await #expect(throws: TodoError.failed("database is read-only")) { try await logic.addTodo(text: "milk") }
        #expect(state.query == "mi")
        #expect(state.error == .failed("database is read-only"))
    }

    @Test func recoverLastQueryRestoresWhatWasSearched() async throws {
        try await logic.setQuery("bank")
        let fresh = TodoState()
        let again = TodoLogic(state: fresh, storage: storage, environment: fixed.environment)
        try await again.recoverLastQuery()
        #expect(fresh.query == "bank")
    }

    @Test func doneAndUndoneSetCompletionTimes() async throws {
        let item = try await logic.addTodo(text: "milk")
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        let done = try await logic.setDone(true, idPrefixes: [String(item.idString.prefix(8))])
        #expect(done.count == 1)
        #expect(done[0].isDone)
        #expect(done[0].completedAt == done[0].updatedAt)
        #expect(done[0].updatedAt > item.updatedAt)
        #expect(state.window.rows.map(\.item) == done)
        let undone = try await logic.setDone(false, idPrefixes: [item.idString])
        #expect(!undone[0].isDone)
        #expect(undone[0].completedAt == nil)
        #expect(await storage.items == undone)
    }

    @Test func anUnknownIDChangesNothing() async throws {
        let item = try await logic.addTodo(text: "milk")
        await #expect(throws: TodoError.notFound("ffff")) {
            try await logic.setDone(true, idPrefixes: [item.idString, "ffff"])
        }
        #expect(await storage.items == [item])
        #expect(state.error == .notFound("ffff"))
    }

    @Test func anAmbiguousPrefixIsRefused() async throws {
        try await logic.addTodo(text: "one")
        try await logic.addTodo(text: "two")
        let candidates = [
            IDMatch(shortID: "00000000-0000-4000-8000-000000000001", text: "one"),
            IDMatch(shortID: "00000000-0000-4000-8000-000000000002", text: "two"),
        ]
        await #expect(throws: TodoError.ambiguousID("0000", matches: 2, candidates: candidates)) {
            try await logic.deleteTodos(idPrefixes: ["0000"])
        }
        #expect(await storage.items.count == 2)
    }

    @Test func editReplacesTextAndValidatesIt() async throws {
        let item = try await logic.addTodo(text: "milk")
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        let edited = try await logic.editTodo(idPrefix: item.idString, text: "oat milk")
        #expect(edited.text == "oat milk")
        #expect(edited.createdAt == item.createdAt)
        #expect(state.window.rows.map(\.item) == [edited])
        await #expect(throws: TodoError.emptyText) { try await logic.editTodo(idPrefix: item.idString, text: "") }
        #expect(await storage.items == [edited])
    }

    @Test func deleteRemovesFromStorageAndState() async throws {
        let milk = try await logic.addTodo(text: "milk")
        let bread = try await logic.addTodo(text: "bread")
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        try await logic.deleteTodos(idPrefixes: [milk.idString])
        #expect(await storage.items == [bread])
        #expect(state.window.rows.map(\.item) == [bread])
    }

    @Test func malformedIDIsRefusedBeforeStorage() async {
        await #expect(throws: TodoError.invalidID("not-an-id")) {
            try await logic.setDone(true, idPrefixes: ["not-an-id"])
        }
    }
}
