import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport
import TodoTerminal
@testable import TodoUI

/// A context that is on narrows the view's list, shows in its header, and
/// gives todos added from the view its project and tags; waiting todos stay
/// out of the view until their date.
@MainActor
@Suite("The view under a context")
struct ContextViewTests {
    let fixed = FixedEnvironment()
    static let size = TerminalSize(columns: 80, rows: 12)

    @Test func theViewShowsOnlyTheContextsTodosAndFillsInNewOnes() async throws {
        let later = fixed.date(100) + 86_400 * 30
        let storage = InMemoryStorage(items: [
            TodoItem(id: UUID(), text: "file taxes", createdAt: fixed.date(1), project: "work.admin"),
            TodoItem(id: UUID(), text: "water plants", createdAt: fixed.date(2), project: "home"),
            TodoItem(id: UUID(), text: "call client", createdAt: fixed.date(3), tags: ["phone"], project: "work"),
            TodoItem(id: UUID(), text: "quarterly report", createdAt: fixed.date(4), project: "work", wait: .moment(later)),
        ])
        await storage.setContext(TodoContext(name: "work", project: "work"))
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        #expect(ui.rows.map(\.item.text) == ["call client", "file taxes"])
        let screen = TodoView.render(TodoSnapshot(logic.state), ui.view, size: Self.size).map(\.text)
        #expect(screen.first?.contains("context work") == true, "\(screen)")
        #expect(screen.contains { $0.contains("call client") && $0.contains("+work #phone") }, "\(screen)")

        await ui.handle([.character("a")] + Key.typing("book flights") + [.enter])
        let added = try #require(await storage.items.first { $0.text == "book flights" })
        #expect(added.project == "work")
        #expect(ui.rows.map(\.item.text).contains("book flights"))
    }
}
