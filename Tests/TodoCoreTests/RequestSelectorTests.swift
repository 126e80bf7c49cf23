import Foundation
import Testing
import TodoCore

/// `selectRequestedTodos`: what `todo list` shows for its filters and sorts.
@Suite("Selecting by tags, due date and priority")
struct RequestSelectorTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let now = ISO8601.date(from: "2026-11-23T10:00:00.000Z")!

    /// Newest first, as storage lists them: the first is the newest.
    static let items: [TodoItem] = [
        item("rent", due: "2026-12-01", priority: .high, tags: ["bills", "home"]),
        item("call", due: "2026-11-23T09:00:00.000Z", tags: ["work"]),
        item("milk", due: "2026-11-23", priority: .low, tags: ["home"]),
        item("tax", due: "2026-11-20", priority: .high, tags: ["bills"], done: true),
        item("read", priority: .medium),
        item("plan", due: "2026-11-29"),
    ]

    static func item(
        _ text: String, due: String? = nil, priority: TodoPriority? = nil, tags: [String] = [], done: Bool = false
    ) -> TodoItem {
        TodoItem(
            id: UUID(), text: text, isDone: done, createdAt: Date(millisecondsSince1970: 0),
            due: due.flatMap(TodoDue.init(text:)), priority: priority, tags: tags
        )
    }

    func texts(_ request: TodoRequest) -> [String] {
        selectRequestedTodos(items: Self.items, request: request).map(\.text)
    }

    func due(_ text: String) throws -> DueFilter { try DueFilter(parsing: text, now: Self.now, in: Self.berlin) }

    @Test func noFiltersKeepsTheListAsItIs() {
        #expect(texts(TodoRequest()) == ["rent", "call", "milk", "tax", "read", "plan"])
        #expect(texts(TodoRequest(status: .pending, limit: 2)) == ["rent", "call"])
    }

    @Test func tagsAreAllRequired() {
        #expect(texts(TodoRequest(tags: ["home"])) == ["rent", "milk"])
        #expect(texts(TodoRequest(tags: ["bills", "home"])) == ["rent"])
        #expect(texts(TodoRequest(status: .pending, tags: ["bills"])) == ["rent"])
        #expect(texts(TodoRequest(tags: ["Home"])).isEmpty)
    }

    @Test func dueFiltersFollowTheirDays() throws {
        // Before today, or before 11:00 today for a time: the call at 10:00 Berlin time is overdue.
        #expect(texts(TodoRequest(due: try due("overdue"))) == ["call", "tax"])
        #expect(texts(TodoRequest(status: .pending, due: try due("overdue"))) == ["call"])
        #expect(texts(TodoRequest(due: try due("today"))) == ["call", "milk"])
        #expect(texts(TodoRequest(due: try due("week"))) == ["call", "milk", "plan"])
        #expect(texts(TodoRequest(due: try due("2026-12-01"))) == ["rent"])
        #expect(texts(TodoRequest(due: try due("tomorrow"))).isEmpty)
    }

    @Test func priorityFilterAndSorts() {
        #expect(texts(TodoRequest(priority: .level(.high))) == ["rent", "tax"])
        // Soonest first (a day before the times of its date), none last, ties newest first.
        #expect(texts(TodoRequest(sort: .due)) == ["tax", "milk", "call", "plan", "rent", "read"])
        #expect(texts(TodoRequest(sort: .priority)) == ["rent", "tax", "read", "milk", "call", "plan"])
        #expect(texts(TodoRequest(status: .pending, query: "l", sort: .due, limit: 2)) == ["milk", "call"])
    }

    @Test func filtersThatSayNotAndNone() throws {
        #expect(texts(TodoRequest(excludedTags: ["bills"])) == ["call", "milk", "read", "plan"])
        #expect(texts(TodoRequest(excludedTags: ["bills", "home"])) == ["call", "read", "plan"])
        #expect(texts(TodoRequest(priority: .unset)) == ["call", "plan"])
        #expect(texts(TodoRequest(due: try due("none"))) == ["read"])
        // Before 23 November (the 22nd and earlier), and after it (the 24th and later).
        #expect(texts(TodoRequest(due: try DueFilter(parsing: "2026-11-23", after: false, now: Self.now, in: Self.berlin))) == ["tax"])
        #expect(texts(TodoRequest(due: try DueFilter(parsing: "2026-11-23", after: true, now: Self.now, in: Self.berlin))) == ["rent", "plan"])
    }

    @Test func filtersCombineWithTheQueryAndTheStatus() throws {
        #expect(texts(TodoRequest(status: .pending, query: "R", tags: ["home"], sort: .due)) == ["rent"])
        #expect(texts(TodoRequest(status: .done, query: "t", tags: ["bills"], due: try due("overdue"), priority: .level(.high))) == ["tax"])
    }
}
