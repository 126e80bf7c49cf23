import Foundation
import Testing
import TodoCore
import TodoCoreTestSupport

/// A rule another app wrote that the engine does not follow (HOURLY,
/// BYHOUR, RDATE, a rule with no due date to follow it from) is kept as
/// it came: read back unchanged, shown as kept, never followed here, and
/// refused where a person types it.
@Suite("Repeats kept from a server")
struct KeptRepeatTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        "FREQ=HOURLY;INTERVAL=2",
        "FREQ=DAILY;BYHOUR=9,17",
        "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
        "FREQ=SECONDLY",
        "freq=hourly;interval=3",
        "FREQ=WEEKLY;BYDAY=MO;X-TODO-RDATE=20301105,20301112",
        "FREQ=WEEKLY;X-TODO-KEPT=TRUE",
        "X-TODO-RDATE=20301105T090000Z",
    ])
    func aRuleBeyondTheEngineReadsAsKeptAndWritesBackAsItCame(text: String) throws {
        let kept = try #require(TodoRepeat(parsing: text))
        #expect(kept.rule == nil && kept.kept == text)
        #expect(kept.description == text)
        #expect(TodoRepeat(parsing: kept.description) == kept)
        #expect(kept.next(after: .day(CalendarDay(year: 2030, month: 11, day: 4)!), completedOn: CalendarDay(year: 2030, month: 11, day: 4)!, in: Self.utc) == nil)
        #expect(kept.words.hasPrefix("rule kept from the server: "))
        #expect(kept.completingKept?.contains("the app that wrote the rule makes the next") == true)
    }

    @Test func itsPartsAreTheRuleAndTheDatesAsTheyCame() throws {
        let kept = try #require(TodoRepeat.keeping("FREQ=WEEKLY;BYDAY=MO", dates: "20301105,20301112"))
        #expect(kept.description == "FREQ=WEEKLY;BYDAY=MO;X-TODO-RDATE=20301105,20301112")
        #expect(kept.keptRRule == "FREQ=WEEKLY;BYDAY=MO" && kept.keptDates == "20301105,20301112")
        #expect(kept.words == "rule kept from the server: FREQ=WEEKLY;BYDAY=MO and RDATE 20301105,20301112")
        // A rule the engine reads, kept because nothing gives it a start: marked, so it reads back kept.
        let marked = try #require(TodoRepeat.keeping("FREQ=WEEKLY", dates: nil))
        #expect(marked.description == "FREQ=WEEKLY;X-TODO-KEPT=TRUE" && marked.keptRRule == "FREQ=WEEKLY")
        #expect(TodoRepeat.keeping("FREQ=HOURLY", dates: nil)?.description == "FREQ=HOURLY")
        #expect(TodoRepeat.keeping(nil, dates: "20301105")?.keptRRule == nil)
    }

    @Test(arguments: ["", "FREQ=", "FREQ=FORTNIGHTLY", "BYHOUR=9", "FREQ=HOURLY;\u{7}", String(repeating: "FREQ=HOURLY;", count: 400)])
    func whatIsNoRuleIsNotKept(text: String) {
        #expect(TodoRepeat(kept: text) == nil)
        #expect(TodoRepeat(parsing: text) == nil)
    }

    @Test func aPersonTypingARuleTheEngineDoesNotFollowIsToldSo() throws {
        #expect(throws: TodoFieldError.repeatNotFollowed("FREQ=HOURLY")) { try TodoRepeat(typed: "FREQ=HOURLY") }
        #expect(throws: TodoFieldError.repeatNotFollowed("FREQ=WEEKLY;X-TODO-KEPT=TRUE")) { try TodoRepeat(typed: "FREQ=WEEKLY;X-TODO-KEPT=TRUE") }
        #expect(throws: TodoFieldError.badRepeat("every fortnight")) { try TodoRepeat(typed: "every fortnight") }
        #expect(try TodoRepeat(typed: "FREQ=WEEKLY;BYDAY=MO").rule != nil)
        #expect(TodoFieldError.repeatNotFollowed("FREQ=HOURLY").description.contains("FREQ=MONTHLY;BYDAY=2TU"))
        // And its count is not ours to change.
        let kept = try #require(TodoRepeat(parsing: "FREQ=HOURLY"))
        #expect(throws: TodoFieldError.repeatNotFollowed("FREQ=HOURLY")) { try kept.with(count: 3, anchor: nil) }
    }

    /// A todo completed here with a kept rule is done, and makes no next
    /// occurrence; a kept rule needs no due date.
    @Test func completingAKeptRepeatMakesNoNextOccurrence() throws {
        var todo = TodoItem(
            id: UUID(), text: "check the boiler", createdAt: Date(timeIntervalSince1970: 0),
            due: .day(CalendarDay(year: 2030, month: 11, day: 4)!), recurrence: TodoRepeat(parsing: "FREQ=DAILY;BYHOUR=9,17")
        )
        #expect(todo.nextOccurrence(at: Date(timeIntervalSince1970: 1_920_000_000), in: Self.utc) == nil)
        todo.due = nil
        #expect(todo.ruleViolation == nil)
        todo.recurrence = TodoRepeat(parsing: "weekly")
        #expect(todo.ruleViolation == .repeatNeedsDue)
    }

    @MainActor @Test func theLogicCompletesAKeptRepeatAndBringsNothingNext() async throws {
        let id = UUID()
        let storage = InMemoryStorage(items: [TodoItem(
            id: id, text: "check the boiler", createdAt: Date(timeIntervalSince1970: 0),
            due: .day(CalendarDay(year: 2030, month: 11, day: 4)!), recurrence: TodoRepeat(parsing: "FREQ=DAILY;BYHOUR=9,17")
        )])
        let logic = TodoLogic(state: TodoState(), storage: storage)
        let (changed, next, _) = try await logic.setDoneBringingNext(true, idPrefixes: [id.lowercasedString])
        #expect(changed.map(\.isDone) == [true] && next.isEmpty)
        #expect(changed[0].recurrence?.kept == "FREQ=DAILY;BYHOUR=9,17")
    }
}
