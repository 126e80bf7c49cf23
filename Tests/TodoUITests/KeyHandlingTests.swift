import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport
import TodoTerminal
@testable import TodoUI

/// Key sequences drive the controller, which drives `TodoLogic` over the
/// in-memory storage; the state and the view's own state are asserted.
@MainActor
@Suite("Key handling")
struct KeyHandlingTests {
    let fixed = FixedEnvironment()
    static let size = TerminalSize(columns: 60, rows: 12) // ten rows of todos

    /// `count` todos, "todo 1" the oldest; every third done.
    func controller(_ count: Int) async -> (TodoUIController, InMemoryStorage) {
        let items = (0..<count).map { index in
            let n = index + 1
            return TodoItem(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", 100_000 + n))!,
                text: "todo \(n)", isDone: n % 3 == 0, createdAt: fixed.date(n)
            )
        }
        let storage = InMemoryStorage(items: items)
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let controller = TodoUIController(logic: logic, size: Self.size)
        await controller.start()
        await controller.refreshCounts()
        return (controller, storage)
    }

    var selectedText: (TodoUIController) -> String? {
        { $0.selectedRow?.item.text }
    }

    @Test func movingWalksThePendingTodosNewestFirst() async {
        let (ui, _) = await controller(10)
        #expect(ui.selectedRow?.item.text == "todo 10")
        await ui.handle([.character("j"), .down, .character("j")])
        #expect(ui.selectedRow?.item.text == "todo 5") // 9 and 6 are done
        await ui.handle([.up])
        #expect(ui.selectedRow?.item.text == "todo 7")
        await ui.handle([.character("G")])
        #expect(ui.selectedRow?.item.text == "todo 1")
        await ui.handle([.home])
        #expect(ui.selectedRow?.item.text == "todo 10")
        #expect(ui.logic.state.counts == TodoCounts(pending: 7, done: 3))
    }

    /// Subtasks newer than their parent sit above it in the list; folded,
    /// they take no screen row, and moving up still reaches the newer todos
    /// beyond them, however many there are.
    @Test func movingUpPassesAFoldedParentsManySubtasks() async throws {
        let parentID = UUID(uuidString: "00000000-0000-4000-8000-000000000500")!
        var items = (1...5).map { n in
            TodoItem(id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", 0x600 + n))!, text: "old \(n)", createdAt: fixed.date(n))
        }
        items.append(TodoItem(id: parentID, text: "parent", createdAt: fixed.date(10)))
        items += (1...60).map { n in
            TodoItem(id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", 0x700 + n))!, text: "step \(n)",
                     createdAt: fixed.date(10 + n), parent: parentID)
        }
        items.append(TodoItem(id: UUID(uuidString: "00000000-0000-4000-8000-000000000900")!, text: "newest", createdAt: fixed.date(100)))
        let storage = InMemoryStorage(items: items)
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        await ui.handle([.character("G")])
        #expect(ui.selectedRow?.item.text == "old 1")
        for _ in 0..<5 { await ui.handle([.up]) }
        #expect(ui.selectedRow?.item.text == "parent")
        await ui.handle([.up])
        #expect(ui.selectedRow?.item.text == "newest", "the folded subtasks are passed over")
        await ui.handle([.down, .right, .down])
        #expect(ui.selectedRow?.item.text == "step 60", "unfolded, the newest subtask comes first under it")
    }

    /// `x` on a parent with an open subtask asks; only an `x` pressed after
    /// the question completes both, never the second `x` of a paste.
    @Test func aPastedXXAsksAndCompletesNothing() async {
        let parentID = UUID(uuidString: "00000000-0000-4000-8000-000000000500")!
        let storage = InMemoryStorage(items: [
            TodoItem(id: parentID, text: "paint the room", createdAt: fixed.date(1)),
            TodoItem(id: UUID(uuidString: "00000000-0000-4000-8000-000000000501")!, text: "buy paint", createdAt: fixed.date(2), parent: parentID),
        ])
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        #expect(ui.selectedRow?.item.text == "paint the room")
        await ui.handle([.character("x"), .character("x")])
        #expect(ui.view.message?.contains("press x again") == true)
        #expect(await storage.items.allSatisfy { !$0.isDone }, "the paste completed nothing")
        await ui.handle([.character("x")])
        #expect(await storage.items.allSatisfy(\.isDone), "x pressed after the question completes both")
    }

    @Test func addingTypesALineAndSelectsTheNewTodo() async {
        let (ui, storage) = await controller(3)
        await ui.handle([.character("a")] + Key.typing("buy 牛乳") + [.backspace] + Key.typing("乳") + [.enter])
        #expect(await storage.items.contains { $0.text == "buy 牛乳" })
        #expect(ui.selectedRow?.item.text == "buy 牛乳")
        #expect(ui.view.mode == .browsing)
        #expect(ui.logic.state.counts?.pending == 3)
    }

    /// Taskwarrior's words in the add line set fields, and the view says
    /// what it read them as, as the command line does; an edit too.
    @Test func taskwarriorsWordsInTheLineAreReadAndSaid() async {
        let (ui, storage) = await controller(2)
        await ui.handle([.character("a")] + Key.typing("Call mum due:tomorrow +family") + [.enter])
        let mum = await storage.items.first { $0.text == "Call mum" }
        #expect(mum?.tags == ["family"] && mum?.due != nil)
        #expect(ui.view.message?.hasPrefix("Read due:tomorrow as due ") == true, "\(ui.view.message ?? "")")
        #expect(ui.view.message?.hasSuffix(", +family as tag family") == true)
        await ui.handle([.character("e")] + Key.typing(" pri:H -family") + [.enter])
        let edited = await storage.items.first { $0.id == mum?.id }
        #expect(edited?.priority == .high && edited?.tags == [] && edited?.text == "Call mum")
        #expect(ui.view.message == "Read pri:H as priority high, -family as without tag family")
    }

    @Test func escapeCancelsAnAddAndABlankOneShowsTheError() async {
        let (ui, storage) = await controller(2)
        await ui.handle([.character("a"), .character("x"), .escape])
        #expect(await storage.items.count == 2)
        await ui.handle([.character("a"), .character(" "), .enter])
        #expect(ui.logic.state.error == .emptyText)
        #expect(ui.view.mode == .adding)
    }

    @Test func searchingFiltersOnEveryKeystrokeEnterKeepsItEscapeClearsIt() async {
        let (ui, storage) = await controller(25)
        await ui.handle([.character("/"), .character("2")])
        #expect(ui.logic.state.query == "2")
        #expect(ui.rows.map(\.item.text) == ["todo 25", "todo 23", "todo 22", "todo 20", "todo 2"])
        await ui.handle([.character("5")])
        #expect(ui.rows.map(\.item.text) == ["todo 25"])
        await ui.handle([.enter])
        #expect(ui.view.mode == .browsing)
        #expect(ui.logic.state.query == "25")
        #expect(await storage.storedQuery == "25")
        await ui.handle([.character("/"), .escape])
        #expect(ui.logic.state.query == "")
        #expect(ui.rows.count == 17)
    }

    @Test func aSearchThatStopsEarlyShowsWhatItFoundAndFinishesInTheBackground() async throws {
        let (ui, storage) = await controller(10)
        // The quick load reads 4 todos of the list; "todo 1" is the 10th.
        await storage.slowSearches(quickLimit: 4, completeDelay: .milliseconds(20))
        await ui.handle([.character("/")] + Key.typing("o 1"))
        #expect(ui.logic.state.window.isComplete == false)
        #expect(ui.rows.map(\.item.text) == ["todo 10"])
        let task = try #require(ui.searchTask)
        await task.value
        #expect(ui.logic.state.window.isComplete)
        #expect(ui.rows.map(\.item.text) == ["todo 10", "todo 1"])
        #expect(ui.selectedRow?.item.text == "todo 10")
    }

    @Test func theNextKeystrokeCancelsASearchStillRunning() async throws {
        let (ui, storage) = await controller(10)
        await storage.slowSearches(quickLimit: 4, completeDelay: .seconds(600))
        await ui.handle([.character("/")] + Key.typing("o 1"))
        let first = try #require(ui.searchTask)
        await ui.handle(Key.typing("0"))
        #expect(first.isCancelled)
        // Cancelled, its sleep ends at once and it changes nothing.
        await first.value
        #expect(ui.logic.state.query == "o 10")
        let second = try #require(ui.searchTask)
        await ui.handle([.escape])
        #expect(second.isCancelled)
        await second.value
        #expect(ui.logic.state.query.isEmpty)
        #expect(ui.logic.state.window.isComplete)
        #expect(ui.rows.count == 7)
    }

    @Test func theQueryMatchesWhatTheSelectorMatches() async {
        let (ui, storage) = await controller(0)
        await ui.handle([.character("a")] + Key.typing("Crème BRÛLÉE") + [.enter])
        await ui.handle([.character("/")] + Key.typing("brûlée"))
        #expect(ui.rows.map(\.item.text) == ["Crème BRÛLÉE"])
        await ui.handle([.backspace, .backspace, .backspace, .backspace] + Key.typing("ULEE"))
        #expect(ui.rows.isEmpty)
        #expect(selectFilteredTodos(items: await storage.items, query: "brULEE").isEmpty)
    }

    @Test func toggleDeleteAndUndoActOnTheSelectedTodo() async {
        let (ui, storage) = await controller(5)
        await ui.handle([.character("j"), .character("x")])
        #expect(await storage.items.first { $0.text == "todo 4" }?.isDone == true)
        // Done todos leave the pending list: the selection moves to the next.
        #expect(ui.selectedRow?.item.text == "todo 2")
        await ui.handle([.character("d")])
        #expect(await !storage.items.contains { $0.text == "todo 2" })
        #expect(ui.selectedRow?.item.text == "todo 1")
        await ui.handle([.character("u")])
        #expect(await storage.items.contains { $0.text == "todo 2" })
        #expect(ui.selectedRow?.item.text == "todo 2")
        #expect(ui.view.message == "Undid the delete of “todo 2” (U: redo)")
        await ui.handle([.character("u")])
        #expect(await storage.items.first { $0.text == "todo 4" }?.isDone == false)
        await ui.handle([.character("u")])
        #expect(ui.logic.state.error == .nothingToUndoInView)
        // Redo brings back what undo took back, the last taken back first.
        await ui.handle([.character("U")])
        #expect(await storage.items.first { $0.text == "todo 4" }?.isDone == true)
        #expect(ui.view.message == "Redid the done mark of “todo 4”")
        await ui.handle([.control("r")])
        #expect(await !storage.items.contains { $0.text == "todo 2" })
        await ui.handle([.character("U")])
        #expect(ui.logic.state.error == .nothingToRedo)
    }

    /// `u` never takes back work made before the view opened (an import
    /// from the shell): that is `todo undo`'s, typed on purpose.
    @Test func undoInTheViewTakesBackOnlyWhatWasMadeSinceItOpened() async throws {
        let storage = InMemoryStorage()
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        try await logic.addTodo(text: "made in the shell")
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        await ui.handle([.character("u")])
        #expect(ui.logic.state.error == .nothingToUndoInView)
        #expect(await storage.items.map(\.text) == ["made in the shell"])
        await ui.handle([.escape, .character("a")] + Key.typing("made here") + [.enter])
        await ui.handle([.character("u")])
        #expect(await storage.items.map(\.text) == ["made in the shell"])
        await ui.handle([.character("u")])
        #expect(await storage.items.map(\.text) == ["made in the shell"])
    }

    @Test func editingPrefillsTheTextAndSavesOnEnter() async {
        let (ui, storage) = await controller(2)
        await ui.handle([.character("e")])
        #expect(ui.view.input == "todo 2")
        await ui.handle([.backspace] + Key.typing("two") + [.enter])
        #expect(await storage.items.first { $0.text == "todo two" } != nil)
        #expect(ui.selectedRow?.item.text == "todo two")
    }

    /// The edit line moves and edits in the middle, as readline does.
    @Test func theEditLineEditsInTheMiddle() async {
        let (ui, storage) = await controller(2)
        await ui.handle([.character("e"), .home, .right, .right, .right, .right, .right])
        await ui.handle(Key.typing("number "))
        #expect(ui.view.input == "todo number 2")
        await ui.handle([.control("e"), .control("w")] + Key.typing("two") + [.control("a"), .delete, .delete, .delete, .delete, .delete, .enter])
        #expect(await storage.items.contains { $0.text == "number two" })
    }

    /// The add line takes the command line's options; Enter shows every
    /// field of the selected todo and its note, any key goes back.
    @Test func theAddLineTakesOptionsAndEnterShowsEveryField() async throws {
        let (ui, storage) = await controller(2)
        await ui.handle([.character("a")] + Key.typing(#"buy sushi --due tomorrow #errands --note "ask for wasabi""#) + [.enter])
        let added = try #require(await storage.items.first { $0.text == "buy sushi" })
        #expect(added.tags == ["errands"] && added.note == "ask for wasabi" && added.due != nil)
        #expect(ui.selectedRow?.item.id == added.id)
        await ui.handle([.enter])
        #expect(ui.view.mode == .details)
        let shown = TodoView.render(TodoSnapshot(ui.logic.state), ui.view, size: Self.size).map(\.text).joined(separator: "\n")
        #expect(shown.contains("Tags       #errands") && shown.contains("  ask for wasabi"), "\(shown)")
        await ui.handle([.character("j")])
        #expect(ui.view.mode == .browsing)
        // A bad value: the error shows, the line stays to fix.
        await ui.handle([.character("a")] + Key.typing("call mom --due sometime") + [.enter])
        #expect(ui.view.mode == .adding && ui.view.input == "call mom --due sometime")
        #expect(ui.logic.state.error?.description.contains("'sometime' is not a due date") == true)
    }

    @Test func tabCyclesPendingDoneAll() async {
        let (ui, _) = await controller(6)
        #expect(ui.rows.count == 4)
        await ui.handle([.tab])
        #expect(ui.logic.state.filter == .done)
        #expect(ui.rows.map(\.item.text) == ["todo 6", "todo 3"])
        await ui.handle([.tab])
        #expect(ui.rows.count == 6)
        await ui.handle([.tab])
        #expect(ui.logic.state.filter == .pending)
    }

    @Test func aChangeFromElsewhereKeepsTheSelectionOnTheSameTodo() async {
        let (ui, storage) = await controller(8)
        await ui.handle([.character("j"), .character("j")])
        let selected = ui.selectedRow?.item.text
        #expect(selected == "todo 5")
        await storage.changeElsewhere(insert: [TodoItem(id: UUID(), text: "from elsewhere", createdAt: fixed.date(100))])
        await ui.checkForChanges()
        #expect(ui.rows.first?.item.text == "from elsewhere")
        #expect(ui.selectedRow?.item.text == selected)
        // Gone elsewhere: the selection moves to the todo that took its place.
        await storage.changeElsewhere(delete: [ui.selectedRow!.id])
        await ui.checkForChanges()
        #expect(ui.selectedRow?.item.text == "todo 4")
    }

    /// At the top of the list, todos added elsewhere show above the
    /// selection: the view stays at the top instead of keeping them out of sight.
    @Test func aViewAtTheTopShowsTodosAddedElsewhere() async {
        let (ui, storage) = await controller(8)
        #expect(ui.selectedRow?.item.text == "todo 8" && ui.view.selectionRow == 0)
        await storage.changeElsewhere(insert: (1...3).map { TodoItem(id: UUID(), text: "elsewhere \($0)", createdAt: fixed.date(100 + $0)) })
        await ui.checkForChanges()
        #expect(ui.selectedRow?.item.text == "todo 8")
        #expect(ui.view.selectionRow == 3)
        #expect(ui.rows.prefix(3).map(\.item.text) == ["elsewhere 3", "elsewhere 2", "elsewhere 1"])
    }

    /// Tab keeps the selection on its todo where the next filter lists it.
    @Test func tabKeepsTheSelectedTodoWhereItIsStillListed() async {
        let (ui, _) = await controller(8)
        await ui.handle([.tab])
        #expect(ui.logic.state.filter == .done)
        await ui.handle([.character("j")])
        #expect(ui.selectedRow?.item.text == "todo 3")
        await ui.handle([.tab])
        #expect(ui.logic.state.filter == .all)
        #expect(ui.selectedRow?.item.text == "todo 3")
    }

    /// Completing a repeating todo under a kept query keeps the query and
    /// selects the next occurrence, which the query lists.
    @Test func completingARepeatingTodoKeepsTheQueryAndSelectsTheNextOne() async throws {
        let gym = try TodoItem(id: UUID(), text: "gym", createdAt: fixed.date(1))
            .applying(TodoEdit(due: .some(.day(CalendarDay(year: 2026, month: 11, day: 1)!)), recurrence: .some(TodoRepeat(parsing: "daily"))), at: fixed.date(1))
        let storage = InMemoryStorage(items: [gym] + (2...6).map { TodoItem(id: UUID(), text: "todo \($0)", createdAt: fixed.date($0)) })
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        await ui.handle([.character("/")] + Key.typing("gym") + [.enter])
        #expect(ui.rows.map(\.item.text) == ["gym"])
        await ui.handle([.character("x")])
        #expect(ui.logic.state.query == "gym")
        #expect(ui.rows.map(\.item.text) == ["gym"])
        #expect(ui.selectedRow?.item.id != gym.id && ui.selectedRow?.item.isDone == false)
    }

    /// Completing a todo whose repeat is a rule kept from a server says that
    /// its app makes the next, and brings none here.
    @Test func completingAKeptRepeatSaysItsAppMakesTheNext() async throws {
        let boiler = TodoItem(
            id: UUID(), text: "check the boiler", createdAt: fixed.date(1), due: .day(CalendarDay(year: 2026, month: 11, day: 1)!),
            recurrence: TodoRepeat(parsing: "FREQ=DAILY;BYHOUR=9,17")
        )
        let logic = TodoLogic(state: TodoState(), storage: InMemoryStorage(items: [boiler]), environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size)
        await ui.start()
        await ui.handle([.character("x")])
        #expect(ui.view.message?.contains("the app that wrote the rule makes the next") == true, "\(ui.view.message ?? "")")
        #expect(ui.rows.isEmpty)
    }

    @Test func onlyTheRowsAroundTheSelectionAreLoaded() async {
        let (ui, _) = await controller(3000)
        let height = TodoView.listHeight(for: Self.size)
        #expect(ui.logic.state.window.rows.count <= 2 * height + 1)
        for _ in 0..<30 { await ui.handle(.pageDown) }
        #expect(ui.logic.state.window.rows.count <= 4 * height + 1)
        #expect(ui.selectedRow?.item.text == "todo 2549") // 300 pending todos down from 2999
        await ui.handle(.end)
        #expect(ui.selectedRow?.item.text == "todo 1")
        #expect(ui.logic.state.window.rows.count <= 2 * height + 1)
    }

    /// Holds a sync until the test lets it end: no race with the keys a
    /// test sends meanwhile, however loaded the machine.
    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    /// A sync that reports progress and returns a summary, or fails.
    struct FakeSyncer: TodoSyncing {
        var failure: TodoError?
        var gate: Gate?
        /// What the safety rail holds back of a sync that is not forced.
        var holds: HeldDeletions?

        func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
            progress(SyncProgress(done: 1, total: 2))
            if let gate { await gate.wait() } else { try await Task.sleep(for: .milliseconds(20)) }
            if let failure { throw failure }
            var summary = SyncSummary()
            summary.pulled = 3
            if let holds { if force { summary.deletedLocally = holds.count } else { summary.heldBack = holds } }
            return summary
        }

        func localChangeMarker() async throws -> Int64? { nil }
    }

    @Test func syncRunsWithoutHoldingUpTheKeysAndShowsItsSummaryOrError() async {
        for failure in [nil, TodoError.failed("cannot reach http://127.0.0.1:9: connection refused")] {
            let storage = InMemoryStorage(items: [TodoItem(id: UUID(), text: "milk", createdAt: fixed.date(1))])
            let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
            let gate = Gate()
            let ui = TodoUIController(logic: logic, size: Self.size, makeSyncer: { FakeSyncer(failure: failure, gate: gate) })
            await ui.start()
            await ui.handle(.character("s"))
            #expect(ui.syncTask != nil)
            // Keys still work while it runs.
            await ui.handle(.character("x"))
            #expect(await storage.items[0].isDone)
            #expect(logic.state.isSyncing, "still running")
            await gate.open()
            await ui.syncTask?.value
            #expect(!logic.state.isSyncing)
            if let failure {
                #expect(logic.state.error == failure)
            } else {
                #expect(logic.state.lastSync?.pulled == 3)
                #expect(ui.view.message == "Synced: 3 pulled, 0 pushed, 0 deleted here, 0 deleted on the server, 0 conflicts")
            }
        }
    }

    /// The deletions a sync held back are asked about in the footer: `Esc`
    /// leaves them (the header still says so), `F` syncs again, forced.
    @Test func heldDeletionsAreAskedAboutEscLeavesThemAndFMakesThem() async {
        let storage = InMemoryStorage(items: [TodoItem(id: UUID(), text: "milk", createdAt: fixed.date(1))])
        let logic = TodoLogic(state: TodoState(), storage: storage, environment: fixed.environment)
        let held = HeldDeletions(.many, count: 13, synced: 21, examples: ["shared 15"])
        let size = TerminalSize(columns: 140, rows: 12)
        let ui = TodoUIController(logic: logic, size: size, makeSyncer: { FakeSyncer(holds: held) })
        await ui.start()
        func screen() -> String { TodoView.render(TodoSnapshot(logic.state), ui.view, size: size).map(\.text).joined(separator: "\n") }
        // F asks for nothing while nothing is held.
        await ui.handle(.character("F"))
        #expect(ui.syncTask == nil)
        await ui.handle(.character("s"))
        await ui.syncTask?.value
        #expect(logic.state.lastSync?.heldBack == held)
        #expect(screen().contains("The sync held back deletions"))
        #expect(screen().contains("13 deletions held back"))

        await ui.handle(.escape)
        #expect(ui.view.dismissedHold == held)
        #expect(!screen().contains("The sync held back deletions"))
        #expect(screen().contains("13 deletions held back"))

        await ui.handle(.character("F"))
        await ui.syncTask?.value
        #expect(logic.state.lastSync?.deletedLocally == 13)
        #expect(logic.state.lastSync?.heldBack == nil)
        #expect(!screen().contains("held back"))
    }

    @Test func withoutAServerSyncSaysWhy() async {
        let logic = TodoLogic(state: TodoState(), storage: InMemoryStorage(), environment: fixed.environment)
        let ui = TodoUIController(logic: logic, size: Self.size, makeSyncer: { throw TodoError.failed("no server") })
        await ui.handle(.character("s"))
        #expect(logic.state.error == .failed("no server"))
        #expect(ui.syncTask == nil)
    }

    @Test func helpShowsUntilTheNextKeyAndQQuits() async {
        let (ui, _) = await controller(1)
        await ui.handle(.character("?"))
        #expect(ui.view.mode == .help)
        await ui.handle(.character("q"))
        #expect(ui.view.mode == .browsing)
        #expect(!ui.wantsToQuit)
        await ui.handle(.character("q"))
        #expect(ui.wantsToQuit)
    }

    @Test func theKeyDecoderReadsEscapeSequencesAndSplitCharacters() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("j\u{1B}[A\u{1B}[6~\u{1B}OH\r\t\u{7F}\u{03}".utf8)) == [
            .character("j"), .up, .pageDown, .home, .enter, .tab, .backspace, .control("c"),
        ])
        let bytes = Array("日".utf8)
        #expect(decoder.decode(bytes[..<2]).isEmpty)
        #expect(decoder.decode(bytes[2...]) == [.character("日")])
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.decode(Array("\u{1B}[".utf8)).isEmpty)
        #expect(decoder.decode(Array("1;5B".utf8)) == [.down])
    }
}
