import Foundation
import Testing
import TodoCore
@testable import TodoUI

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

    /// A repeat of several words needs no quotes either: `--repeat` takes as
    /// many words as make one repeat, and the rest is text; `--count` ends it.
    @Test func aRepeatOfSeveralWordsNeedsNoQuotes() throws {
        let rent = try Self.read("--repeat monthly on the last friday pay rent --due fri --count 3")
        #expect(rent.text == "pay rent")
        #expect(rent.recurrence??.words == "monthly on the last friday" && rent.repeatCount == 3)
        let quoted = try Self.read(#"--repeat "every 3 days from completion" water plants"#)
        #expect(quoted.text == "water plants" && quoted.recurrence??.words == "3d from completion")
        // A count without a repeat is refused where it is applied, to a todo with none.
        let milk = TodoItem(id: UUID(), text: "milk", createdAt: Self.now)
        #expect(throws: TodoError.invalidField(.repeatDetailWithoutRepeat("a count"))) { try milk.applying(try Self.read("--count 3"), at: Self.now) }
    }

    /// A rule todo does not follow is refused on the line, as on the command line.
    @Test func aRuleTheEngineDoesNotFollowIsRefused() {
        #expect(throws: TodoError.invalidField(.repeatNotFollowed("FREQ=HOURLY"))) { try Self.read("tick --repeat FREQ=HOURLY") }
    }

    /// No shell stands between the line and the grammar: `--due` takes as
    /// many words as read as one date, and the rest is text.
    @Test func aDueDateOfSeveralWordsNeedsNoQuotes() throws {
        let week = try Self.read("buy paint --due next week #home")
        #expect(week.text == "buy paint")
        #expect(week.due == .some(.day(CalendarDay(year: 2026, month: 11, day: 30)!)))
        #expect(week.addTags == ["home"])
        let moment = try Self.read("call --due tomorrow 5pm about the boiler")
        #expect(moment.text == "call about the boiler")
        #expect(moment.due == .some(.moment(ISO8601.date(from: "2026-11-26T17:00:00.000Z")!)))
        let day = try Self.read("--due fri pick up the parcel")
        #expect(day.text == "pick up the parcel")
        #expect(day.due == .some(.day(CalendarDay(year: 2026, month: 11, day: 27)!)))
        // A quoted value is one date, whole.
        #expect(try Self.read(#"--due "in 3 days" water plants"#).due == .some(.day(CalendarDay(year: 2026, month: 11, day: 28)!)))
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
        ("buy --due sometime", "'sometime' is not a due date"),
        ("buy --due next tuseday", "did you mean 'next tuesday'?"),
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

    /// Taskwarrior's words are read too, keeping a word of the todo's text.
    @Test func taskwarriorsWordsAreReadToo() throws {
        let add = try TodoEdit(line: "Call mum due:tomorrow +family", now: Self.now, timeZone: Self.utc)
        #expect(add.text == "Call mum")
        #expect(add.due == (.some(.day(CalendarDay(year: 2026, month: 11, day: 26)!))))
        #expect(add.addTags == ["family"])
        let edit = try TodoEdit(line: "pri:H -family", text: "Call mum", now: Self.now, timeZone: Self.utc)
        #expect(edit.priority == .some(.high) && edit.removeTags == ["family"] && edit.text == nil)
        // A word of the text before stays text.
        #expect(try TodoEdit(line: "read +x", text: "read +x", now: Self.now, timeZone: Self.utc).text == "read +x")
    }
}
