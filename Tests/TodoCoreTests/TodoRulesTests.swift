import Foundation
import Testing
import TodoCore

@Suite("Text and ID rules")
struct TodoRulesTests {
    @Test func textIsTrimmed() throws {
        #expect(try TodoText.validated("  milk \t") == "milk")
    }

    @Test(arguments: ["", "   ", "\t\n"])
    func blankTextIsRefused(text: String) {
        #expect(throws: TodoError.emptyText) { try TodoText.validated(text) }
    }

    @Test func textOverTheLimitIsRefused() {
        let long = String(repeating: "é", count: TodoText.maximumLength + 1)
        #expect(throws: TodoError.textTooLong(length: TodoText.maximumLength + 1, limit: TodoText.maximumLength)) {
            try TodoText.validated(long)
        }
        #expect(throws: Never.self) { try TodoText.validated(String(long.dropFirst())) }
    }

    @Test func tabsBecomeSpaces() throws {
        #expect(try TodoText.validated("pasted\tfrom\t\ta sheet\t") == "pasted from  a sheet")
    }

    @Test(arguments: ["two\nlines", "nul\u{0}", "para\u{2029}graph", "bell\u{7}"])
    func controlCharactersAreRefused(text: String) {
        #expect(throws: TodoError.textHasControlCharacters) { try TodoText.validated(text) }
    }

    @Test func prefixesAreLowercasedHex() throws {
        #expect(try TodoID.normalizedPrefix("3F2A") == "3f2a")
        #expect(try TodoID.normalizedPrefix("3f2a1b2c-") == "3f2a1b2c-")
        #expect(throws: TodoError.invalidID("xyz")) { try TodoID.normalizedPrefix("xyz") }
        #expect(throws: TodoError.invalidID("")) { try TodoID.normalizedPrefix("") }
    }

    @Test func uniquePrefixIsAtLeastFourAndLongerThanWhatNeighboursShare() {
        #expect(TodoID.uniquePrefixLength(of: "abcdef", previous: nil, next: nil) == 4)
        #expect(TodoID.uniquePrefixLength(of: "abcdef", previous: "abcd00", next: "b") == 5)
        #expect(TodoID.uniquePrefixLength(of: "abcdef", previous: "a", next: "abcdee") == 6)
    }

    @Test func datesRoundTripThroughISO8601() {
        let date = Date(millisecondsSince1970: 1_790_000_000_123)
        let text = ISO8601.string(from: date)
        #expect(text == "2026-09-21T14:13:20.123Z")
        #expect(ISO8601.date(from: text) == date)
        #expect(ISO8601.date(from: "2026-09-21T14:13:20Z") == Date(millisecondsSince1970: 1_790_000_000_000))
        #expect(ISO8601.string(fromMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601.date(from: "yesterday") == nil)
    }

    @Test func itemsRoundTripThroughJSON() throws {
        let item = TodoItem(
            id: UUID(), text: "milk", isDone: true,
            createdAt: Date(millisecondsSince1970: 1000), updatedAt: Date(millisecondsSince1970: 2000),
            completedAt: Date(millisecondsSince1970: 2000)
        )
        let data = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(TodoItem.self, from: data) == item)
    }
}
