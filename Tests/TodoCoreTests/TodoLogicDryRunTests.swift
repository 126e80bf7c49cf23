import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport

/// The actions a front end previews (`todo mcp`'s `dry_run`), and the reads
/// that go through `TodoLogic`: a dry run answers what the action would make
/// and changes neither storage, nor the journal, nor the state.
@MainActor
@Suite("TodoLogic dry runs and reads")
struct TodoLogicDryRunTests {
    let fixed = FixedEnvironment()
    let state = TodoState()

    @Test func everyDryRunAnswersTheResultAndChangesNothing() async throws {
        let storage = InMemoryStorage()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        let first = try #require(CalendarDay(year: 2031, month: 5, day: 1))
        let item = try await logic.addTodo(text: "water plants", fields: TodoEdit(due: .day(first), recurrence: TodoRepeat(parsing: "weekly")))
        try await logic.loadWindow(around: .top, newer: 0, older: 10)
        let (items, journal, rows) = (await storage.items, await storage.journal, state.window.rows)

        let added = try await logic.addTodo(text: "new", dryRun: true)
        #expect(added.text == "new")
        let edited = try await logic.editTodo(idPrefix: item.idString, edit: TodoEdit(text: "water the garden"), dryRun: true)
        #expect(edited.text == "water the garden")
        let (done, next, _) = try await logic.setDoneBringingNext(true, idPrefixes: [item.idString], dryRun: true)
        #expect(done.map(\.isDone) == [true])
        #expect(next.map(\.due) == [.day(try #require(CalendarDay(year: 2031, month: 5, day: 8)))])
        #expect(try await logic.deleteTodos(idPrefixes: [item.idString], dryRun: true) == [item])

        #expect(await storage.items == items)
        #expect(await storage.journal == journal)
        #expect(state.window.rows == rows)
    }

    @Test func aDryRunRefusesWhatTheActionRefuses() async throws {
        let storage = InMemoryStorage()
        let logic = TodoLogic(state: state, storage: storage, environment: fixed.environment)
        await #expect(throws: TodoError.emptyText) { try await logic.addTodo(text: " ", dryRun: true) }
        await #expect(throws: TodoError.notFound("abcd")) { try await logic.deleteTodos(idPrefixes: ["abcd"], dryRun: true) }
    }

    @Test func readTodosStreamsWhatTheSelectorSelectsAndStopsWhenAsked() async throws {
        let items = (1...6).map { number in
            TodoItem(id: UUID(), text: "todo \(number)", createdAt: Date(millisecondsSince1970: Int64(number)), tags: number.isMultiple(of: 2) ? ["even"] : [])
        }
        let logic = TodoLogic(state: state, storage: InMemoryStorage(items: items), environment: fixed.environment)
        let request = TodoRequest(status: .all, tags: ["even"])
        var read: [TodoItem] = []
        try await logic.readTodos(request) { read.append($0); return true }
        #expect(read == selectRequestedTodos(items: items.reversed(), request: request))
        var first: [TodoItem] = []
        try await logic.readTodos(request) { first.append($0); return false }
        #expect(first == [read[0]])
        #expect(try await logic.todos(idPrefixes: [items[0].idString]).map(\.item) == [items[0]])
    }
}
