import Foundation
import Testing
import TodoCore
import TodoInterchange

/// todo.txt lines read and written exactly.
@Suite("todo.txt")
struct TodoTxtTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let now = Date(millisecondsSince1970: 1_790_000_000_000)

    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }

    static func read(_ text: String) throws -> [TodoItem] {
        try TodoTxt.todos(from: text, timeZone: zone, now: now)
    }

    @Test func aLineWithEveryPart() throws {
        let line = "(A) 2026-11-20 pay rent +home @bank due:2026-12-15 iban:DE02"
        let item = try #require(try Self.read(line).first)
        #expect(item == TodoItem(
            id: UUID(derivedFrom: "todo.txt|" + line), text: "pay rent iban:DE02",
            createdAt: Self.day("2026-11-20").start(in: Self.zone),
            due: .day(Self.day("2026-12-15")), priority: .high, tags: ["@bank", "home"]
        ))
    }

    @Test func doneLinesWithAndWithoutDates() throws {
        let items = try Self.read("""
            x 2026-11-23 2026-11-01 done thing +x pri:B
            x 2026-11-23 plain one
            x plain two
            """)
        #expect(items.map(\.isDone) == [true, true, true])
        #expect(items[0].completedAt == Self.day("2026-11-23").start(in: Self.zone))
        #expect(items[0].createdAt == Self.day("2026-11-01").start(in: Self.zone))
        #expect(items[0].priority == .medium)
        #expect(items[0].tags == ["x"])
        #expect(items[1].completedAt == Self.day("2026-11-23").start(in: Self.zone))
        #expect(items[1].createdAt == Self.now)
        #expect(items[2].text == "plain two")
        #expect(items[2].completedAt == Self.now)
    }

    @Test(arguments: [("(A)", TodoPriority.high), ("(B)", .medium), ("(C)", .low), ("(D)", .low), ("(Z)", .low)])
    func priorities(letter: String, priority: TodoPriority) throws {
        #expect(try Self.read("\(letter) call").first?.priority == priority)
    }

    @Test func whatLooksLikeAPartButIsNotStaysText() throws {
        let items = try Self.read("""
            (a) lower case is text
            call (A) later
            2026-11-01 x is not done here
            +
            email me@example.com about C++
            """)
        #expect(items.map(\.text) == ["(a) lower case is text", "call (A) later", "x is not done here", "+", "email me@example.com about C++"])
        #expect(items.allSatisfy { $0.priority == nil && !$0.isDone && $0.tags.isEmpty })
    }

    @Test func idsComeFromTheLineSoTheSameFileGivesTheSameTodos() throws {
        let file = "buy milk\n\nbuy milk\ncall mom\n"
        let first = try Self.read(file)
        #expect(first.count == 3)
        #expect(Set(first.map(\.id)).count == 3)
        #expect(try Self.read(file) == first)
        #expect(try Self.read("call mom").first?.id == first[2].id)
    }

    @Test func aBadLineIsReportedWithItsNumber() {
        #expect(throws: InterchangeError(line: 3, "'due:friday' is not a due date: todo.txt writes it as due:YYYY-MM-DD, e.g. due:2026-12-15")) {
            try Self.read("one\n\ntwo due:friday\n")
        }
        #expect(throws: InterchangeError(line: 1, TodoError.textTooLong(length: 10_001, limit: 10_000).description)) {
            try Self.read(String(repeating: "a", count: 10_001))
        }
    }

    @Test func writtenLinesReadBackToTheSameFields() throws {
        let created = Self.day("2026-11-20").start(in: Self.zone)
        let items = [
            TodoItem(id: UUID(), text: "pay rent", createdAt: created, due: .day(Self.day("2026-12-15")),
                     priority: .high, tags: ["@bank", "home"], note: "dropped", recurrence: TodoRepeat(parsing: "monthly")),
            TodoItem(id: UUID(), text: "x marks the spot", createdAt: created),
            TodoItem(id: UUID(), text: "done one", isDone: true, createdAt: created,
                     completedAt: Self.day("2026-11-22").start(in: Self.zone), priority: .low, tags: ["x"]),
        ]
        let lines = items.map { TodoTxt.line(for: $0, timeZone: Self.zone) }
        #expect(lines == [
            "(A) 2026-11-20 pay rent +home @bank due:2026-12-15 rec:+1m",
            "2026-11-20 x marks the spot",
            "x 2026-11-22 2026-11-20 done one +x pri:C",
        ])
        let read = try Self.read(lines.joined(separator: "\n"))
        for (original, back) in zip(items, read) {
            #expect(back.text == original.text)
            #expect(back.isDone == original.isDone)
            #expect(back.priority == original.priority)
            #expect(back.tags == original.tags)
            #expect(back.due == original.due)
            #expect(back.recurrence?.rule == original.recurrence?.rule)
            #expect(back.createdAt == original.createdAt)
            #expect(back.completedAt == original.completedAt)
        }
    }

    /// The recurrence add-on's `rec:`: from completion, or with `+` from the
    /// due date (the strict chain); written back as read.
    @Test(arguments: [
        ("rec:1w", "weekly from completion"), ("rec:+1w", "weekly!"), ("rec:3d", "3d from completion"), ("rec:+2m", "2m!"),
        ("rec:y", "yearly from completion"),
    ])
    func recRepeats(word: String, words: String) throws {
        let line = "2026-11-20 water plants due:2026-12-01 \(word)"
        let item = try #require(try Self.read(line).first)
        #expect(item.recurrence?.words == words && item.text == "water plants")
        #expect(TodoTxt.line(for: item, timeZone: Self.zone) == line.replacingOccurrences(of: "rec:y", with: "rec:1y"))
    }

    /// Without a due date, or in a form it does not take, `rec:` stays text.
    @Test func aRecWithoutADueDateOrUnreadStaysText() throws {
        #expect(try Self.read("2026-11-20 water plants rec:1w").first?.text == "water plants rec:1w")
        #expect(try Self.read("2026-11-20 water plants due:2026-12-01 rec:3b").first?.text == "water plants rec:3b")
    }
}
