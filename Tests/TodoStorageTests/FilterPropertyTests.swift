import Foundation
import GRDB
import PropertyBased
import Testing
import TodoCore
@testable import TodoStorage

/// `todo list --tag/--not-tag/--due (none, --due-before, --due-after)/--priority (none)/--project (none)/--waiting/--sort`,
/// and the hiding of waiting and expired todos, run inside SQLite; these
/// properties pin that they return exactly what `selectRequestedTodos` returns
/// over the same todos, with "now" and the time zone pinned, through both the
/// decoding path and the raw path `todo list` prints from.
@Suite("Filters in SQLite equal selectRequestedTodos")
struct FilterPropertyTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Pacific/Kiritimati"].map { TimeZone(identifier: $0)! }
    /// Late evening in UTC: the local date is the UTC date in Berlin, the day before in
    /// New York and the day after at Kiritimati (UTC+14).
    static let nows = ["2026-11-23T22:30:00.000Z", "2026-11-23T09:15:00.000Z"].map { ISO8601.date(from: $0)! }
    static let tagVocabulary = ["home", "work", "bills", "Home"]
    static let words = ["milk", "bank", "mint", "a"]
    /// Projects and names that share their start: `home-x` sorts inside the range the filter walks for `home`.
    static let projects: [String?] = [nil, "home", "home.garden", "homework", "home-x", "work.home"]

    /// A due date near the pinned days: none, a day, or a moment (some on the exact millisecond of a "now").
    static func due(_ pick: Int) -> TodoDue? {
        switch pick {
        case 0...9: return nil
        case 10...20: return .day(CalendarDay(parsing: "2026-11-20")!.adding(days: pick - 10))
        case 21...22: return .moment(nows[pick - 21])
        default:
            // Every 3 h 20 min and a minute from 20 November: each hour of the day in every zone comes up.
            return .moment(ISO8601.date(from: "2026-11-20T00:00:00.000Z")! + Double(pick - 23) * 12_060)
        }
    }

    /// Splits `value` into digits of the given bases, least significant first: one random number per todo or request.
    static func digits(_ value: Int, _ bases: [Int]) -> [Int] {
        var rest = value
        return bases.map { base in
            defer { rest /= base }
            return rest % base
        }
    }

    static func tags(_ mask: Int) -> [String] {
        tagVocabulary.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
    }

    @Test func filteredListsMatchTheSelector() async throws {
        let number = Gen.int(in: 0...Int(Int32.max))
        await propertyCheck(count: 300, input: number.array(of: 0...25), number.array(of: 1...6), Gen.int(in: 0...5)) { todos, requests, clock in
            let now = Self.nows[clock % 2], zone = Self.zones[clock / 2]
            let db = try AppDatabase.inMemory()
            var items: [TodoItem] = []
            for (index, random) in todos.enumerated() {
                let field = Self.digits(random, [Self.words.count, 58, 4, 16, 2, 6, 58, 58])
                let (word, due, priority, tagMask, done) = (field[0], Self.due(field[1]), field[2], field[3], field[4] == 1)
                // Pairs of todos share a creation time, as a sync's pulls do.
                let item = TodoItem(
                    id: UUID(), text: Self.words[word], isDone: done, createdAt: Date(millisecondsSince1970: Int64(index / 2)),
                    due: due, priority: TodoPriority(rank: priority), tags: Self.tags(tagMask),
                    project: Self.projects[field[5]], wait: Self.due(field[6]), until: Self.due(field[7])
                )
                try db.insertTodo(item)
                items.insert(item, at: 0) // newest first, as storage lists them
            }
            // `todo projects`: each project's own pending count, those past their until date left out.
            #expect(try db.pendingProjectCounts(now: now, timeZone: zone) == selectPendingProjectCounts(items: items, now: now, timeZone: zone))
            // `todo status` and the view's header: what the lists list, waiting todos apart.
            #expect(try await db.countTodos(at: now, in: zone) == selectCounts(items: items, now: now, timeZone: zone))
            for random in requests {
                let field = Self.digits(random, [3, 5, 16, 14, 5, 3, 6, 16, 7, 3])
                let (status, query, tagMask, dueFilter, priority, sort, limit) = (field[0], field[1], field[2], field[3], field[4], field[5], field[6])
                let filters = ["overdue", "today", "tomorrow", "week", "2026-11-21", "yesterday", "fri", "2026-11-24T10:00", "none"]
                // --due-before and --due-after: days and moments on each side of the pinned days.
                let bounds = [("2026-11-22", false), ("2026-11-23", true), ("tomorrow", false), ("2026-11-20T05:00", true)]
                let due: DueFilter? = switch dueFilter {
                case 0: nil
                case 1...9: try DueFilter(parsing: filters[dueFilter - 1], now: now, in: zone)
                default: try DueFilter(parsing: bounds[dueFilter - 10].0, after: bounds[dueFilter - 10].1, now: now, in: zone)
                }
                let request = TodoRequest(
                    status: TodoRequest.Status.allCases[status],
                    query: ["", "a", "mi", "milk", "ANK"][query],
                    tags: Self.tags(tagMask),
                    excludedTags: Self.tags(field[7]).filter { !Self.tags(tagMask).contains($0) },
                    due: due,
                    priority: priority == 4 ? .unset : TodoPriority(rank: priority).map { .level($0) },
                    project: [nil, .unset, .within("home"), .within("home.garden"), .within("work"), .within("homework"), .within("home-x")][field[8]],
                    schedule: [.any, .current(at: now, in: zone), .waiting(at: now, in: zone)][field[9]],
                    sort: TodoRequest.Sort.allCases[sort],
                    limit: limit == 0 ? nil : limit
                )
                let expected = selectRequestedTodos(items: items, request: request)
                let listed = try db.fetchListed(request).map(\.item)
                #expect(listed == expected, "\(request) at \(now) in \(zone.identifier)")
                var raw: [String] = []
                try db.forEachRawTodo(request) { raw.append(String(decoding: $0.id, as: UTF8.self)) }
                #expect(raw == expected.map(\.idString), "\(request), raw path")
            }
        }
    }

    @Test func aTodoWithEveryFieldComesBackWhole() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(
            id: UUID(), text: "pay rent", createdAt: Date(millisecondsSince1970: 1_000),
            due: .moment(ISO8601.date(from: "2026-12-01T13:30:00.000Z")!), priority: .high, tags: ["home", "bills", "a\"b"],
            note: "IBAN in mail\nsecond line", recurrence: TodoRepeat(parsing: "monthly")
        )
        try db.insertTodo(item)
        #expect(try db.fetchListed(TodoRequest(tags: ["a\"b"])).map(\.item) == [item])
        var rows: [(String, Int, String)] = []
        try db.forEachRawTodo(TodoRequest()) { row in
            rows.append((String(decoding: row.due, as: UTF8.self), row.priority, String(decoding: row.tags, as: UTF8.self)))
        }
        #expect(rows.count == 1)
        #expect(rows.first?.0 == "2026-12-01T13:30:00.000Z")
        #expect(rows.first?.1 == 1)
        #expect(rows.first?.2 == #"["a\"b","bills","home"]"#)
    }

    // MARK: - Plans

    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let monday = ISO8601.date(from: "2026-11-23T10:00:00.000Z")!

    /// The query plan of each statement of `request`'s list.
    func plans(_ request: TodoRequest) throws -> [String] {
        let db = try AppDatabase.inMemory()
        return try db.dbWriter.read { db in
            try AppDatabase.listSQL(request).map { statement in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
    }

    @Test(arguments: ["overdue", "today", "week", "2026-12-01"])
    func dueFiltersWalkARangeOfTheDueIndex(filter: String) throws {
        let due = try DueFilter(parsing: filter, now: Self.monday, in: Self.berlin)
        let plan = try plans(TodoRequest(status: .pending, due: due)).joined()
        #expect(plan.contains("todo_on_isDone_due (isDone=? AND due>? AND due<?)") || plan.contains("todo_on_isDone_due (isDone=? AND due<?)"), "\(plan)")
    }

    @Test func aProjectWalksOneRangeOfTheProjectIndex() throws {
        let plan = try plans(TodoRequest(status: .pending, project: .within("home"))).joined()
        #expect(plan.contains("todo_on_isDone_project (isDone=? AND project>? AND project<?)"), "\(plan)")
    }

    @Test(arguments: [TodoRequest.Status.pending, .done])
    func aTagWalksItsRunOfTodoTagNewestFirst(status: TodoRequest.Status) throws {
        let plan = try plans(TodoRequest(status: status, tags: ["home"])).joined()
        #expect(plan.contains("SEARCH todoTag USING PRIMARY KEY (tag=? AND isDone=?)"), "\(plan)")
        #expect(plan.contains("INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "newest first without sorting: \(plan)")
        let two = try plans(TodoRequest(status: status, tags: ["home", "work"])).joined()
        #expect(two.contains("todoTag_on_seq"), "a second tag is a lookup per todo: \(two)")
    }

    @Test(arguments: [TodoRequest.Status.pending, .done])
    func sortingByDueOrPriorityReadsTheirIndexesInOrder(status: TodoRequest.Status) throws {
        let byDue = try plans(TodoRequest(status: status, sort: .due))
        #expect(byDue.count == 2)
        #expect(byDue[0].contains("todo_on_isDone_due"), "\(byDue)")
        #expect(byDue[1].contains("todo_on_isDone_createdAt_seq_searchText"), "\(byDue)")
        #expect(!byDue.joined().contains("TEMP B-TREE"), "no sort: \(byDue)")
        let byPriority = try plans(TodoRequest(status: status, sort: .priority))
        #expect(byPriority[0].contains("todo_on_isDone_priority"), "\(byPriority)")
        #expect(!byPriority.joined().contains("TEMP B-TREE"), "no sort: \(byPriority)")
        let onePriority = try plans(TodoRequest(status: status, priority: .level(.high))).joined()
        #expect(onePriority.contains("todo_on_isDone_priority (isDone=? AND priority=?)"), "\(onePriority)")
        #expect(!onePriority.contains("TEMP B-TREE"), "no sort: \(onePriority)")
    }
}
