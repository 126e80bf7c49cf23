import Foundation
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Due dates, priorities, tags, notes and repeats travel and merge field by
/// field, tags as a set; a repeating todo completed on two machines makes one
/// next occurrence.
struct PlanningFieldsSyncTests {
    static let id = UUID(uuidString: "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b")!
    static let now = Date(timeIntervalSince1970: 1_795_253_400)
    static let utc = TimeZone(identifier: "UTC")!

    static func fields(
        _ text: String = "pay rent", due: TodoDue? = nil, priority: TodoPriority? = nil, tags: [String] = [],
        note: String? = nil, recurrence: TodoRepeat? = nil
    ) -> SyncFields {
        SyncFields(text: text, isDone: false, due: due, priority: priority, tags: tags, note: note, recurrence: recurrence)
    }

    static func entry(base: SyncFields, local: SyncFields, remote: SyncFields, localTime: Double, remoteTime: Double) -> SyncEntry {
        // Each side's edit time on the fields it changed since the base.
        func times(_ fields: SyncFields, _ seconds: Double) -> FieldTimes {
            var times = FieldTimes()
            for field in TodoField.allCases where !fields.holdsSame(field, as: base) {
                times[field] = Date(timeIntervalSince1970: seconds)
            }
            return times
        }
        let remoteTimes = times(remote, remoteTime)
        return SyncEntry(
            todoId: id,
            base: SyncBase(todoId: id, remoteId: "r1", fields: base),
            local: TodoItem(
                id: id, text: local.text, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: localTime),
                due: local.due, priority: local.priority, tags: local.tags, note: local.note, recurrence: local.recurrence,
                editedAt: times(local, localTime)
            ),
            remote: RemoteTodo(id: "r1", fields: remote, editedAt: remoteTimes),
            pendingRev: 1
        )
    }

    static let day = CalendarDay(year: 2026, month: 12, day: 1)!

    // MARK: - The planner

    @Test func tagsAddedHereAndRemovedThereBothApply() throws {
        let entry = Self.entry(
            base: Self.fields(tags: ["bills", "home"]),
            local: Self.fields(tags: ["home", "work"]),
            remote: Self.fields(tags: ["bills", "garden"]),
            localTime: 10, remoteTime: 20
        )
        let step = try #require(SyncPlanner.plan([entry], now: Self.now).steps.first)
        let merged = Self.fields(tags: ["garden", "work"])
        #expect(step.local.savedFields == (merged))
        #expect(step.remote == .update(id: "r1", version: nil, fields: merged, changed: [.tags]))
        #expect(step.conflicts.isEmpty)
    }

    /// A CalDAV list that cannot say whether our last write was lost or
    /// overwritten since: merged without the base, the tags are settled by
    /// the newer edit; joined, a tag removed there would come back.
    @Test func tagsWithABaseInDoubtGoToTheNewerEdit() throws {
        var entry = Self.entry(
            base: Self.fields(tags: ["bills", "errands"]),
            local: Self.fields(tags: ["bills", "errands"]),
            remote: Self.fields(tags: ["errands"]),
            localTime: 10, remoteTime: 20
        )
        entry.local?.editedAt[.tags] = Date(timeIntervalSince1970: 10)
        entry.base = nil
        entry.baseInDoubt = true
        let step = try #require(SyncPlanner.plan([entry], now: Self.now).steps.first)
        #expect(step.local.savedFields?.tags == ["errands"])
        // Two copies made apart (no base, and none in doubt) are still joined.
        entry.baseInDoubt = false
        #expect(SyncPlanner.plan([entry], now: Self.now).steps.first?.local.savedFields?.tags == ["bills", "errands"])
    }

    @Test func tagsOfTwoCopiesWithoutABaseAreJoined() {
        #expect(SyncPlanner.mergedTags(base: nil, local: ["a", "b"], remote: ["b", "c"]) == ["a", "b", "c"])
        #expect(SyncPlanner.mergedTags(base: ["a"], local: [], remote: ["a"]) == [])
        #expect(SyncPlanner.mergedTags(base: ["a"], local: ["a"], remote: ["a", "z"]) == ["a", "z"])
    }

    @Test func differentFieldsChangedOnEachSideBothSurvive() throws {
        let entry = Self.entry(
            base: Self.fields(),
            local: Self.fields(priority: .high),
            remote: Self.fields(due: .day(Self.day), note: "IBAN in mail"),
            localTime: 10, remoteTime: 20
        )
        let step = try #require(SyncPlanner.plan([entry], now: Self.now).steps.first)
        let merged = Self.fields(due: .day(Self.day), priority: .high, note: "IBAN in mail")
        #expect(step.local.savedFields == (merged))
        #expect(step.remote == .update(id: "r1", version: nil, fields: merged, changed: [.priority]))
        #expect(step.conflicts.isEmpty)
    }

    @Test(arguments: [(10.0, 20.0), (20.0, 10.0)])
    func theLaterEditOfADueDateWins(localTime: Double, remoteTime: Double) throws {
        let later = CalendarDay(year: 2026, month: 12, day: 24)!
        let entry = Self.entry(
            base: Self.fields(due: .day(Self.day)),
            local: Self.fields(due: .day(later)),
            remote: Self.fields(due: nil),
            localTime: localTime, remoteTime: remoteTime
        )
        let step = try #require(SyncPlanner.plan([entry], now: Self.now).steps.first)
        let conflict = try #require(step.conflicts.first)
        #expect(conflict.field == "due")
        #expect(conflict.localValue == "2026-12-24")
        #expect(conflict.remoteValue == "")
        if localTime > remoteTime {
            #expect(conflict.winner == .local)
            #expect(step.remote == .update(id: "r1", version: nil, fields: Self.fields(due: .day(later)), changed: [.due]))
        } else {
            #expect(conflict.winner == .remote)
            #expect(step.local.savedFields == (Self.fields(due: nil)))
        }
    }

    // MARK: - Reading and writing server items

    @Test func aServerItemsPlanningFieldsAreReadTolerantly() throws {
        let json = try JSONValue.parse(Array("""
            {"id": 7, "title": "pay rent", "dueDate": "2026-12-01", "priority": "H", "tags": "home, bills",
             "note": "line one\\nline two", "repeat": "monthly"}
            """.utf8))
        let item = try #require(RemoteTodo(json: json, names: FieldNames()))
        #expect(item.fields == Self.fields(
            due: .day(Self.day), priority: .high, tags: ["bills", "home"], note: "line one\nline two",
            recurrence: TodoRepeat(every: 1, .monthly)
        ))
        let odd = try JSONValue.parse(Array(#"{"id": 8, "title": "x", "dueDate": "soon", "priority": 9, "tags": ["ok", "not ok", 3], "repeat": "often"}"#.utf8))
        let oddItem = try #require(RemoteTodo(json: odd, names: FieldNames()))
        #expect(oddItem.fields == Self.fields("x", tags: ["ok"]))
    }

    @Test func theListScannerReadsPlanningFieldsAsTheDecoderDoes() throws {
        let body = Array("""
            [{"id": 1, "title": "a", "dueDate": "2026-12-01T13:30:00.000Z", "dueDateEditedAt": "2026-11-20T10:00:00.000Z",
              "priority": "low", "tags": ["x", "y"], "tagsEditedAt": "2026-11-21T10:00:00.000Z", "note": null, "repeat": "2w"},
             {"id": 2, "title": "b", "tags": []}]
            """.utf8)
        let scanned = try #require(RemoteListScanner.items(in: body, names: FieldNames()))
        guard case let .array(elements) = try JSONValue.parse(body) else { Issue.record("not an array"); return }
        let decoded = elements.map { RemoteTodo(json: $0, names: FieldNames()) }
        #expect(scanned == decoded)
        let first = try #require(scanned.first ?? nil)
        #expect(first.fields.due == .moment(ISO8601.date(from: "2026-12-01T13:30:00.000Z")!))
        #expect(first.fields.tags == ["x", "y"])
        #expect(first.editedAt[.tags] == ISO8601.date(from: "2026-11-21T10:00:00.000Z"))
        #expect(first.fields.recurrence == TodoRepeat(every: 2, .weekly))
    }

    // MARK: - End to end

    static func planned(_ text: String, id: UUID = UUID()) -> TodoItem {
        var item = TodoItem(
            id: id, text: text, createdAt: Date(timeIntervalSince1970: 1_795_000_000), due: .day(day), priority: .high,
            tags: ["bills", "home"], note: "IBAN in mail\nsecond line", recurrence: TodoRepeat(every: 1, .monthly),
            project: "home.bills", wait: .day(day.adding(days: -3)), scheduled: .moment(Date(timeIntervalSince1970: 1_795_100_000)),
            until: .day(day.adding(days: 365))
        )
        item.start = .moment(Date(timeIntervalSince1970: 1_795_050_000.123))
        return item
    }

    /// Every field reaches the other machine, and tags edited on both merge.
    func everyFieldTravels(_ a: Replica, _ b: Replica) async throws {
        let original = Self.planned("pay rent")
        try a.db.insertTodo(original)
        try await a.sync()
        try await b.sync()
        let pulled = try #require(try b.todos().first)
        #expect(pulled.syncFields == original.syncFields)
        #expect(pulled.createdAt == original.createdAt)

        let onA = try #require(try a.todos().first)
        try a.db.updateTodos([try onA.applying(TodoEdit(addTags: ["work"], removeTags: ["bills"]), at: Date())])
        try b.db.updateTodos([try pulled.applying(
            TodoEdit(
                priority: .some(nil), addTags: ["garden"], removeTags: ["home"], project: .some("home.garden"), wait: .some(nil),
                start: .some(nil)
            ),
            at: Date()
        )])
        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(try a.contents() == b.contents())
        let merged = try #require(try a.todos().first)
        #expect(merged.tags == ["garden", "work"])
        #expect(merged.priority == nil)
        #expect(merged.note == original.note)
        #expect(merged.project == "home.garden")
        #expect(merged.wait == nil)
        #expect(merged.scheduled == original.scheduled)
        #expect(merged.until == original.until)
        #expect(original.start != nil && merged.start == nil)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 0)
    }

    @Test(arguments: [FakeJSONServer.Flavor.v1, .v017])
    func everyFieldTravelsThroughAJSONServer(flavor: FakeJSONServer.Flavor) async throws {
        let server = FakeJSONServer(flavor)
        try await everyFieldTravels(try Replica(transport: server), try Replica(transport: server))
    }

    @Test func everyFieldTravelsThroughTodoServer() async throws {
        try await withLiveTodoServer { url in
            let transport = AsyncHTTPTransport(timeout: .seconds(10))
            try await everyFieldTravels(try Replica(transport: transport, server: url), try Replica(transport: transport, server: url))
        }
    }

    // MARK: - Recurrence

    /// Replicas complete the same occurrences offline, in any order, and sync
    /// in any order: exactly one todo per occurrence, on every server kind.
    func oneTodoPerOccurrence(seed: UInt64, makeReplica: () throws -> Replica) async throws {
        var random = SeededRandom(seed: seed)
        let replicas = [try makeReplica(), try makeReplica(), try makeReplica()]
        let first = TodoItem(
            id: UUID(derivedFrom: "series-\(seed)"), text: "water the plants", createdAt: Self.now,
            due: .day(Self.day), recurrence: TodoRepeat(parsing: ["daily", "weekly", "monthly", "3d"][Int(seed % 4)])
        )
        try replicas[0].db.insertTodo(first)
        try await replicas[0].sync()
        for replica in replicas.dropFirst() { try await replica.sync() }
        for step in 0..<12 {
            let replica = replicas[Int(random.next() % 3)]
            if random.chance(0.35) {
                try await replica.sync()
                continue
            }
            // Complete the earliest pending occurrence this replica holds.
            guard let pending = try replica.todos().filter({ !$0.isDone }).min(by: { $0.due!.text < $1.due!.text }) else { continue }
            let at = Self.now.addingTimeInterval(Double(step))
            let done = pending.marking(done: true, at: at)
            let next = try #require(done.nextOccurrence(at: at, in: Self.utc))
            try replica.db.updateTodos([done], addingIfAbsent: [next])
        }
        for _ in 0..<2 {
            for replica in replicas { try await replica.sync(force: true) }
        }
        let contents = try replicas[0].contents()
        for replica in replicas.dropFirst() { #expect(try replica.contents() == contents, "seed \(seed): replicas differ") }
        let todos = try replicas[0].todos()
        let dues = todos.compactMap(\.due?.text)
        #expect(Set(dues).count == dues.count, "seed \(seed): an occurrence is there twice: \(dues.sorted())")
        #expect(todos.filter { !$0.isDone }.count == 1, "seed \(seed): one pending occurrence")
    }

    @Test(arguments: (1...15).map { UInt64($0) })
    func oneTodoPerOccurrenceThroughAJSONServer(seed: UInt64) async throws {
        let server = FakeJSONServer(seed % 2 == 0 ? .v1 : .v017, seed: seed)
        try await oneTodoPerOccurrence(seed: seed) { try Replica(transport: server) }
    }

    @Test(arguments: (1...5).map { UInt64($0) })
    func oneTodoPerOccurrenceThroughTodoServer(seed: UInt64) async throws {
        try await withLiveTodoServer { url in
            let transport = AsyncHTTPTransport(timeout: .seconds(10))
            try await oneTodoPerOccurrence(seed: seed) { try Replica(transport: transport, server: url) }
        }
    }
}
