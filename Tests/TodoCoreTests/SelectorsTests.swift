import Foundation
import Testing
import TodoCore

@Suite("Selectors")
struct SelectorsTests {
    func item(_ text: String, done: Bool = false) -> TodoItem {
        TodoItem(id: UUID(), text: text, isDone: done, createdAt: Date(millisecondsSince1970: 0))
    }

    @Test func emptyQueryReturnsEverything() {
        let items = [item("a"), item("b")]
        #expect(selectFilteredTodos(items: items, query: "") == items)
    }

    @Test(arguments: [
        ("Buy MILK", "milk", true),
        ("buy milk", "MIL", true),
        ("Crème brûlée", "BRÛLÉE", true),
        ("Crème brûlée", "brulee", false),
        ("STRASSE", "straße", false),
        ("Straße", "STRASSE", false),
        ("İstanbul", "i̇stanbul", true),
        ("café", "cafe\u{301}", true),
        ("cafe\u{301}", "café", true),
        ("cafe\u{301}", "cafe", false),
        ("100% done", "0%", true),
        ("a_b", "_", true),
        ("ab", "_", false),
        ("say \"hi\"", "\"hi", true),
        ("back\\slash", "\\s", true),
    ])
    func matchesLikeTheSeed(text: String, query: String, expected: Bool) {
        let todo = item(text)
        #expect(selectFilteredTodos(items: [todo], query: query) == (expected ? [todo] : []))
    }

    @Test func countsWhatTheListsListWaitingTodosApart() {
        let now = Date(millisecondsSince1970: 1_000_000_000), utc = TimeZone(identifier: "UTC")!
        let later = TodoDue.moment(now + 3_600), earlier = TodoDue.moment(now - 3_600)
        func with(_ item: TodoItem, wait: TodoDue? = nil, until: TodoDue? = nil) -> TodoItem {
            var item = item
            item.wait = wait
            item.until = until
            return item
        }
        let items = [
            item("a"), item("b", done: true), item("c"),
            with(item("waits"), wait: later), with(item("waited"), wait: earlier),
            with(item("done, waiting", done: true), wait: later),
            with(item("expired"), until: earlier), with(item("done, expired", done: true), until: earlier),
        ]
        #expect(selectCounts(items: items, now: now, timeZone: utc) == TodoCounts(pending: 3, done: 2, waiting: 1))
    }
}
