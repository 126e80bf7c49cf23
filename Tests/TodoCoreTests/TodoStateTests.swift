import Foundation
import Testing
import TodoCore

@MainActor
@Suite("TodoState transitions")
struct TodoStateTests {
    let milk = TodoItem(id: UUID(), text: "milk", createdAt: Date(millisecondsSince1970: 1000))
    let bread = TodoItem(id: UUID(), text: "bread", createdAt: Date(millisecondsSince1970: 2000))

    @Test func transitionsApplyBeforeReturning() {
        let state = TodoState()
        state.fetchTodoRequest()
        #expect(state.isLoading)
        #expect(state.error == nil)
        state.fetchTodoSuccess(items: [milk])
        #expect(!state.isLoading)
        #expect(state.items == [milk])
    }

    @Test func fetchFailureKeepsItemsAndRecordsTheError() {
        let state = TodoState(items: [milk])
        state.fetchTodoRequest()
        state.fetchTodoFail(.failed("disk full"))
        #expect(!state.isLoading)
        #expect(state.error == .failed("disk full"))
        #expect(state.items == [milk])
    }

    @Test func successReplacesItemsAndClearsAnEarlierError() {
        let state = TodoState(items: [milk])
        state.fetchTodoFail(.failed("x"))
        state.fetchTodoSuccess(items: [bread])
        #expect(state.items == [bread])
        #expect(state.error == nil)
    }

    @Test func addTodoInsertsAtTheTopAndClearsTheQuery() {
        let state = TodoState(items: [milk], query: "mi")
        state.addTodo(bread)
        #expect(state.items == [bread, milk])
        #expect(state.query == "")
    }

    @Test func updateAndRemoveKeepOrder() {
        let state = TodoState(items: [bread, milk])
        let doneMilk = milk.marking(done: true, at: Date(millisecondsSince1970: 5000))
        state.updateTodos([doneMilk])
        #expect(state.items == [bread, doneMilk])
        state.removeTodos(ids: [bread.id])
        #expect(state.items == [doneMilk])
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
        var itemsSeen: [[TodoItem]] = []
        let subscription = state.onChange { itemsSeen.append($0.items) }
        state.addTodo(milk)
        #expect(itemsSeen == [[milk]])
        subscription.cancel()
    }
}
