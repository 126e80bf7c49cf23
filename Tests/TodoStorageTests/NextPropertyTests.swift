import Foundation
import PropertyBased
import Testing
import TodoCore
@testable import TodoStorage

/// `todo next` ranks inside SQLite; this property pins that it ranks exactly
/// as `selectNextTodos` does over the same todos, with random weights, "now"
/// and time zones, and todos blocked by open, done and deleted ones: every
/// term in whole millionths on both sides.
@Suite("todo next in SQLite equals selectNextTodos")
struct NextPropertyTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "UTC"].map { TimeZone(identifier: $0)! }
    static let nows = ["2026-11-23T22:30:00.250Z", "2026-11-23T09:15:00.000Z", "2026-03-29T01:30:00.000Z"].map { ISO8601.date(from: $0)! }
    static let tagVocabulary = ["next", "home", "work", "bills"]

    /// A date near the pinned days: none, a day, or a moment.
    static func date(_ pick: Int) -> TodoDue? {
        switch pick {
        case 0...9: nil
        case 10...50: .day(CalendarDay(parsing: "2026-11-01")!.adding(days: pick - 10))
        default: .moment(ISO8601.date(from: "2026-10-20T00:00:00.000Z")! + Double(pick - 51) * 40_321.5)
        }
    }

    @Test func rankingsMatchTheSelector() async throws {
        let number = Gen.int(in: 0...Int(Int32.max))
        await propertyCheck(count: 200, input: number.array(of: 0...30), number, Gen.int(in: 0...11)) { todos, weightSeed, clock in
            let now = Self.nows[clock % 3], zone = Self.zones[clock / 3]
            let db = try AppDatabase.inMemory()
            var items: [TodoItem] = []
            for (index, random) in todos.enumerated() {
                let field = FilterPropertyTests.digits(random, [90, 4, 16, 2, 3, 90, 5, 2, 5])
                // Blocked by an earlier todo (open or done), two of them, or one that is gone.
                let earlier = items.map(\.id)
                let blockers: [UUID] = switch field[8] {
                case 1 where !earlier.isEmpty: [earlier[random % earlier.count]]
                case 2 where earlier.count > 1: [earlier[random % earlier.count], earlier[(random / 7) % earlier.count]]
                case 3: [UUID()]
                default: []
                }
                let created = ISO8601.date(from: "2025-10-01T00:00:00.000Z")! + Double(field[7] == 0 ? index / 2 : index) * 1_234_567.891
                var item = TodoItem(
                    id: UUID(), text: "todo \(index)", createdAt: created,
                    due: Self.date(field[0]), priority: TodoPriority(rank: field[1]),
                    tags: Self.tagVocabulary.enumerated().filter { field[2] & (1 << $0.offset) != 0 }.map(\.element),
                    note: field[3] == 1 ? "a note" : nil, project: [nil, "home", "work.q4"][field[4]],
                    wait: field[6] == 0 ? Self.date(field[5]) : nil, scheduled: Self.date(field[5]),
                    until: field[6] == 1 ? Self.date(field[0]) : nil, blockedBy: blockers
                )
                // Started (`todo start`) now and then: the active term.
                if field[3] == 0, field[7] == 1 { item.start = .moment(item.createdAt) }
                try db.insertTodo(field[6] == 4 ? item.marking(done: true, at: now) : item)
                items.insert(field[6] == 4 ? item.marking(done: true, at: now) : item, at: 0)
            }
            // In list order, as storage lists them: newest first, the later inserted first among equals.
            items = items.enumerated().sorted { ($0.element.createdAt, -$0.offset) > ($1.element.createdAt, -$1.offset) }.map(\.element)
            var weights = UrgencyWeights.taskwarrior
            var seed = weightSeed
            for (_, path) in UrgencyWeights.names where seed % 3 == 0 || { seed /= 3; return false }() {
                // Up to the largest config.toml allows, both ways.
                weights[keyPath: path] = seed % 5 == 0 ? (seed % 2 == 0 ? 1_000 : -1_000) : Double(seed % 2000 - 1000) / 37
                seed /= 7
            }
            weights.ageLimitDays = weightSeed % 11 == 0 ? UrgencyWeights.longestAgeLimit : 1 + weightSeed % 400
            let projects: [TodoRequest.ProjectFilter?] = [nil, .within("home"), .unset]
            for (limit, project) in zip([1, 3, 50], projects) {
                let filter = TodoRequest(project: project, schedule: .current(at: now, in: zone))
                let request = NextRequest(filter: filter, weights: weights, now: now, timeZone: zone, limit: limit)
                let expected = selectNextTodos(items: items, request: request)
                var ranked: [RankedTodo] = []
                try db.forEachNext(request) { ranked.append($0); return true }
                #expect(ranked.map(\.todo.item) == expected.map(\.item), "\(weights) at \(now) in \(zone.identifier)")
                #expect(ranked.map(\.urgency) == expected.map(\.urgency))
            }
        }
    }
}
