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

    @Test func countsPendingAndDone() {
        let items = [item("a"), item("b", done: true), item("c")]
        #expect(selectPendingCount(items: items) == 2)
        #expect(selectDoneCount(items: items) == 1)
    }
}
