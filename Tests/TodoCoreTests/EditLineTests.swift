import Foundation
import Testing
import TodoCore

/// The line typed in a view to add or edit a todo reads the options the
/// command line takes, the same way.
@Suite("The add and edit line")
struct EditLineTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let now = CalendarDay(year: 2026, month: 11, day: 25)!.start(in: utc) // a Wednesday

    static func read(_ line: String, text: String = "") throws -> TodoEdit {
        try TodoEdit(line: line, text: text, now: now, timeZone: utc)
    }

    @Test func wordsAndOptionsAreToldApart() throws {
        let edit = try Self.read(#"buy sushi --due fri #errands --priority high --note "call first" --repeat weekly"#)
        #expect(edit.text == "buy sushi")
        #expect(edit.due == .some(.day(CalendarDay(year: 2026, month: 11, day: 27)!)))
        #expect(edit.addTags == ["errands"])
        #expect(edit.priority == .some(.high))
        #expect(edit.note == .some("call first"))
        #expect(edit.recurrence == .some(TodoRepeat(parsing: "weekly")))
    }

    @Test func noneClearsAndFieldsAloneKeepTheText() throws {
        let edit = try Self.read("--due none --priority none --untag home --note none --repeat none")
        #expect(edit.text == nil)
        #expect(edit.due == .some(nil) && edit.priority == .some(nil) && edit.note == .some(nil) && edit.recurrence == .some(nil))
        #expect(edit.removeTags == ["home"])
    }

    /// `#` words of the text as it was, and `#2`, stay text.
    @Test func hashWordsOfTheTextStayText() throws {
        #expect(try Self.read("fix the #frontend build", text: "fix the #frontend build").addTags.isEmpty)
        #expect(try Self.read("buy #2 pencils").text == "buy #2 pencils")
        #expect(try Self.read(##"say "#hello""##).text == "say #hello")
    }

    @Test(arguments: [
        ("buy --due", "--due needs a value after it"),
        ("buy --due someday", "'someday' is not a due date"),
        ("buy --priority urgent", "'urgent' is not a priority"),
        ("buy --repeat often", "'often' is not a repeat"),
        ("buy --tag two,words", "is not one word"),
    ])
    func aBadValueIsRefusedSayingWhatToType(line: String, message: String) {
        #expect {
            try Self.read(line)
        } throws: { error in
            (error as? TodoError)?.description.contains(message) == true
        }
    }
}
