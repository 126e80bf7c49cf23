import Foundation
import Observation
import Synchronization
import Testing
import TodoCore

@MainActor
@Suite("TodoState transitions")
struct TodoStateTests {
    let milk = TodoItem(id: UUID(), text: "milk", createdAt: Date(millisecondsSince1970: 1000))
    let bread = TodoItem(id: UUID(), text: "bread", createdAt: Date(millisecondsSince1970: 2000))

    /// `todo ui` redraws from the listeners; a SwiftUI view would read the
    /// state through Observation instead, and is told of a transition too.
    @Test func anObservationReaderIsToldOfATransition() {
        let state = TodoState()
        let told = Mutex(0)
        withObservationTracking { _ = state.window.rows } onChange: { told.withLock { $0 += 1 } }
        state.dismissError()  // changes nothing the reader read: no redraw
        #expect(told.withLock { $0 } == 0)
        state.windowLoaded(window([milk]))
        #expect(told.withLock { $0 } == 1)
    }

    /// A loaded window of `items`, in that order.
    func window(_ items: [TodoItem]) -> TodoWindow {
        let rows = items.map { item in
            TodoWindow.Row(
                item: item, position: TodoPosition(createdAt: item.createdAt.millisecondsSince1970, sequence: 1),
                shortIDLength: 4
            )
        }
        return TodoWindow(rows: rows, hasNewer: false, hasOlder: false)
    }

    @Test func transitionsApplyBeforeReturning() {
        let state = TodoState()
        state.windowLoaded(window([milk]))
        #expect(state.window.rows.map(\.item) == [milk])
        state.actionFailed(.failed("x"))
        #expect(state.error == .failed("x"))
    }

    @Test func aFailureKeepsTheRowsAndAReloadKeepsTheFailure() {
        let state = TodoState()
        state.windowLoaded(window([milk]))
        state.actionFailed(.failed("disk full"))
        #expect(state.error == .failed("disk full"))
        #expect(state.window.rows.map(\.item) == [milk])
        state.windowLoaded(window([bread, milk]))
        #expect(state.window.rows.map(\.item) == [bread, milk])
        #expect(state.error == .failed("disk full"))
        state.dismissError()
        #expect(state.error == nil)
    }

    @Test func aChangeThatSucceedsClearsAnEarlierError() {
        let state = TodoState()
        state.windowLoaded(window([milk]))
        state.actionFailed(.failed("x"))
        let oatMilk = TodoItem(id: milk.id, text: "oat milk", createdAt: milk.createdAt)
        state.updateTodos([oatMilk])
        #expect(state.window.rows.map(\.item) == [oatMilk])
        #expect(state.error == nil)
    }

    @Test func addingClearsTheQueryAndAnEarlierError() {
        let state = TodoState()
        state.setQuery("mi")
        state.actionFailed(.emptyText)
        state.todoAdded()
        #expect(state.query == "")
        #expect(state.error == nil)
    }

    @Test func updateAndDeleteKeepTheOrderOfTheRows() {
        let state = TodoState()
        state.windowLoaded(window([bread, milk]))
        let doneMilk = milk.marking(done: true, at: Date(millisecondsSince1970: 5000))
        state.updateTodos([doneMilk])
        #expect(state.window.rows.map(\.item) == [bread, doneMilk])
        state.deleteTodos([bread])
        #expect(state.window.rows.map(\.item) == [doneMilk])
    }

    /// An undo writes back the rows it touched and drops the ones it did not
    /// write back (an add taken back); the error it may follow is cleared.
    @Test func anUndoShowsInTheLoadedRows() {
        let state = TodoState()
        let oatMilk = TodoItem(id: milk.id, text: "oat milk", createdAt: milk.createdAt)
        state.windowLoaded(window([bread, oatMilk]))
        state.actionFailed(.failed("x"))
        let at = Date(millisecondsSince1970: 9000)
        state.undid(TodoUndo(
            number: 2, at: at, kind: .update, changes: [.init(id: milk.id, before: milk, after: oatMilk)], restored: [milk]
        ))
        #expect(state.window.rows.map(\.item) == [bread, milk])
        #expect(state.error == nil)
        state.undid(TodoUndo(number: 1, at: at, kind: .add, changes: [.init(id: bread.id, before: nil, after: bread)]))
        #expect(state.window.rows.map(\.item) == [milk])
    }

    @Test func listenersHearEveryTransitionUntilCancelled() {
        let state = TodoState()
        var seen: [String] = []
        let subscription = state.onChange { seen.append($0.query) }
        state.setQuery("a")
        state.setQuery("ab")
        subscription.cancel()
        state.setQuery("abc")
        #expect(seen == ["a", "ab"])
    }

    @Test func releasingTheSubscriptionStopsTheListener() {
        let state = TodoState()
        var calls = 0
        var subscription: StateSubscription? = state.onChange { _ in calls += 1 }
        state.setQuery("a")
        _ = subscription
        subscription = nil
        state.setQuery("b")
        #expect(calls == 1)
    }

    @Test func listenersSeeTheNewState() {
        let state = TodoState()
        var rowsSeen: [[TodoItem]] = []
        let subscription = state.onChange { rowsSeen.append($0.window.rows.map(\.item)) }
        state.windowLoaded(window([milk]))
        #expect(rowsSeen == [[milk]])
        subscription.cancel()
    }
}
