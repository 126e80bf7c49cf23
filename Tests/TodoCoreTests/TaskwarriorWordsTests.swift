import Foundation
import Testing
import TodoCore

/// Taskwarrior's attribute words, read as `task add` and `task modify`
/// read them, wherever a todo's words are typed.
@Suite("Taskwarrior's words")
struct TaskwarriorWordsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let now = CalendarDay(year: 2026, month: 11, day: 25)!.start(in: utc) // a Wednesday
    static func day(_ day: Int) -> TodoDue { .day(CalendarDay(year: 2026, month: 11, day: day)!) }

    static func read(_ words: [String], editing: Bool = false) throws -> TaskwarriorWords {
        try TaskwarriorWords(words, editing: editing, now: now, timeZone: utc)
    }

    /// The issue's `todo add "Call mum" due:tomorrow +family`.
    @Test func attributesAndTagsAreFieldsAndTheRestIsText() throws {
        let read = try Self.read(["Call mum", "due:tomorrow", "+family"])
        #expect(read.text == ["Call mum"])
        #expect(read.edit.due == .some(Self.day(26)))
        #expect(read.edit.addTags == ["family"])
        #expect(read.read.map(\.word) == ["due:tomorrow", "+family"])
        #expect(read.read.map(\.field) == [.due, .tags])
        #expect(read.hints.isEmpty)
    }

    @Test func everyAttributeAndItsShortNames() throws {
        let read = try Self.read([
            "x", "scheduled:fri", "wait:mon", "until:2026-12-24", "pro:home.garden", "pri:H", "depends:3f2a,91bc", "recur:weekly",
        ])
        #expect(read.text == ["x"])
        #expect(read.edit.scheduled == .some(Self.day(27)))
        #expect(read.edit.wait == .some(Self.day(30)))
        #expect(read.edit.until == .some(.day(CalendarDay(year: 2026, month: 12, day: 24)!)))
        #expect(read.edit.project == .some("home.garden"))
        #expect(read.edit.priority == .some(.high))
        #expect(read.edit.addBlockers == ["3f2a", "91bc"])
        #expect(read.edit.recurrence == .some(TodoRepeat(parsing: "weekly")))
        // Three letters or more that begin one name only; two are text.
        #expect(try Self.read(["sched:fri"]).edit.scheduled == .some(Self.day(27)))
        #expect(try Self.read(["proj:work"]).edit.project == .some("work"))
        #expect(try Self.read(["priority:low"]).edit.priority == .some(.low))
        #expect(try Self.read(["pr:H"]).text == ["pr:H"])
        // Taskwarrior's named dates.
        #expect(try Self.read(["due:eom"]).edit.due == .some(Self.day(30)))
    }

    @Test func anEmptyValueClears() throws {
        let read = try Self.read(["due:", "project:", "priority:"], editing: true)
        #expect(read.edit.due == .some(nil))
        #expect(read.edit.project == .some(nil))
        #expect(read.edit.priority == .some(nil))
        #expect(read.text.isEmpty)
    }

    @Test func afterTwoDashesEveryWordIsText() throws {
        let read = try Self.read(["buy", "--", "due:tomorrow", "+family", "--"])
        #expect(read.text == ["buy", "due:tomorrow", "+family", "--"])
        #expect(read.edit == TodoEdit())
    }

    /// `-tag` takes a tag off in an edit; in an add it is text.
    @Test func aMinusTagIsATagTakenOffOnlyInAnEdit() throws {
        #expect(try Self.read(["-urgent"], editing: true).edit.removeTags == ["urgent"])
        #expect(try Self.read(["-urgent"]).text == ["-urgent"])
        // Not a tag: no letter after the sign.
        #expect(try Self.read(["+1", "555", "-5", "C++"], editing: true).text == ["+1", "555", "-5", "C++"])
    }

    /// Words that only look like attributes stay text; those that nearly
    /// are one, or are Taskwarrior's with no field here, get a hint.
    @Test func lookalikesStayTextWithAHintWhereOneHelps() throws {
        let read = try Self.read(["duw:fri", "prority:H", "status:done", "https://example.com", "Note:", "at:5", "10:30"])
        #expect(read.text == ["duw:fri", "prority:H", "status:done", "https://example.com", "Note:", "at:5", "10:30"])
        #expect(read.hints == ["duw:fri", "prority:H", "status:done"])
        #expect(TaskwarriorWords.hint(for: "duw:fri").hasPrefix("'duw:fri' is kept in the text: todo reads due:"))
    }

    @Test func badValuesSayWhatIsWrong() throws {
        #expect(throws: TodoFieldError.badPriority("X")) { try Self.read(["pri:X"]) }
        #expect(throws: TodoFieldError.badRepeat("often")) { try Self.read(["recur:often"]) }
        #expect(throws: TodoFieldError.badDate("soonish", option: "wait")) { try Self.read(["wait:soonish"]) }
        #expect(throws: TodoFieldError.badProject("a..b")) { try Self.read(["project:a..b"]) }
        // A word with a space was quoted as text.
        #expect(try Self.read(["Project: the report"]).text == ["Project: the report"])
    }

    @Test func aFieldSetByAnOptionAndAWordIsRefused() throws {
        let words = try Self.read(["due:mon"])
        #expect(throws: TodoFieldError.setTwice("due:mon")) { try TodoEdit(due: .some(Self.day(27))).adding(words) }
        let merged = try TodoEdit(addTags: ["home"]).adding(try Self.read(["+family", "pri:M"]))
        #expect(merged.addTags == ["home", "family"])
        #expect(merged.priority == .some(.medium))
    }
}
