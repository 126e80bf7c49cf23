import Foundation
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Every edit of every field survives a sync: a merge obeys the rules a
/// todo obeys, copies of one todo made on several replicas keep each
/// side's edits, and every date ends the same everywhere. Each case runs
/// against a json-server-style server and against a real todo-server.
struct FieldMergeTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_420_000) // 2026-11-23T07:46:40Z
    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    static let zone = TimeZone(identifier: "UTC")!
    static let day = CalendarDay(year: 2030, month: 1, day: 10)!

    enum Server: CaseIterable { case jsonServer, todoServer }

    /// Runs `body` with two replicas of one server of `kind`.
    static func withReplicas(_ kind: Server, _ body: @Sendable (Replica, Replica) async throws -> Void) async throws {
        switch kind {
        case .jsonServer:
            let server = FakeJSONServer(.v1)
            try await body(try Replica(transport: server), try Replica(transport: server))
        case .todoServer:
            try await withLiveTodoServer { url in
                let transport = AsyncHTTPTransport(timeout: .seconds(10))
                try await body(try Replica(transport: transport, server: url), try Replica(transport: transport, server: url))
            }
        }
    }

    /// What `todo edit` does: the edit checked and applied at `time`.
    static func edit(_ replica: Replica, _ id: UUID, _ edit: TodoEdit, at time: Date) throws {
        let item = try #require(try replica.todos().first { $0.id == id })
        try replica.db.updateTodos([try item.applying(edit, at: time)])
    }

    /// What `todo done` does: marked done, with the next occurrence of a repeating todo.
    @discardableResult
    static func complete(_ replica: Replica, _ id: UUID, at time: Date) throws -> TodoItem? {
        let item = try #require(try replica.todos().first { $0.id == id })
        let done = item.marking(done: true, at: time)
        let next = item.nextOccurrence(at: time, in: zone)
        try replica.db.updateTodos([done], addingIfAbsent: next.map { [$0] } ?? [])
        return next
    }

    /// A todo added on `a` with `edit` at 0 s, then synced by `a` and `b`: its id.
    static func shared(_ a: Replica, _ b: Replica, _ edit: TodoEdit = TodoEdit()) async throws -> UUID {
        let id = UUID()
        try a.db.insertTodo(try TodoItem(id: id, text: "t", createdAt: at(0)).applying(edit, at: at(0)))
        try await a.sync(now: at(1))
        try await b.sync(now: at(2))
        return id
    }

    static func todo(_ replica: Replica, _ id: UUID) throws -> TodoItem {
        try #require(try replica.todos().first { $0.id == id })
    }

    // MARK: - 1. A merge obeys the rules

    /// A sets a repeat while B clears the due date: merged field by field that
    /// would be a repeating todo without a due date. Due and repeat go
    /// together, from the side that edited them last.
    @Test(arguments: Server.allCases, [false, true])
    func aRepeatAndAClearedDueDateMergeIntoATodoTheRulesAllow(kind: Server, repeatIsLater: Bool) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b, TodoEdit(due: .some(.day(Self.day))))
            try Self.edit(a, id, TodoEdit(recurrence: .some(TodoRepeat(parsing: "weekly"))), at: Self.at(repeatIsLater ? 20 : 10))
            try Self.edit(b, id, TodoEdit(due: .some(nil)), at: Self.at(repeatIsLater ? 10 : 20))
            try await a.sync(now: Self.at(30))
            let summary = try await b.sync(now: Self.at(31))
            try await a.sync(now: Self.at(32))
            let merged = try Self.todo(a, id)
            #expect(try Self.todo(b, id) == merged)
            #expect(merged.ruleViolation == nil)
            if repeatIsLater {
                #expect(merged.due == .day(Self.day) && merged.recurrence == TodoRepeat(parsing: "weekly"))
            } else {
                #expect(merged.due == nil && merged.recurrence == nil)
            }
            let conflict = try #require(summary.conflicts.first { $0.field == "due+repeat" })
            #expect(conflict.winner == (repeatIsLater ? .remote : .local))
            // Whatever came of it, the todo is one a person can edit and complete.
            try Self.edit(b, id, TodoEdit(priority: .some(.high)), at: Self.at(40))
        }
    }

    // MARK: - 2. Copies made on two replicas keep each side's edits

    /// A and B complete the same repeating todo: each makes the same next
    /// occurrence O. B gives O a priority, A a note: both survive.
    @Test(arguments: Server.allCases)
    func editsOfANextOccurrenceMadeOnTwoReplicasBothSurvive(kind: Server) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b, TodoEdit(due: .some(.day(Self.day)), recurrence: .some(TodoRepeat(parsing: "daily"))))
            let next = try #require(try Self.complete(a, id, at: Self.at(10)))
            try Self.complete(b, id, at: Self.at(11))
            try Self.edit(b, next.id, TodoEdit(priority: .some(.high)), at: Self.at(12))
            try await b.sync(now: Self.at(13))
            try Self.edit(a, next.id, TodoEdit(note: .some("call first")), at: Self.at(14))
            try await a.sync(now: Self.at(15))
            try await b.sync(now: Self.at(16))
            let occurrence = try Self.todo(a, next.id)
            #expect(occurrence.priority == .high)
            #expect(occurrence.note == "call first")
            #expect(try Self.todo(b, next.id) == occurrence)
            #expect(try a.todos() == b.todos())
        }
    }

    /// B edits its copy of O while A completes O: the completion is not
    /// undone by B's untouched done mark, and the occurrence after it exists once.
    @Test(arguments: Server.allCases)
    func aCompletionOfANextOccurrenceIsNotUndoneByAnotherCopysEdit(kind: Server) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b, TodoEdit(due: .some(.day(Self.day)), recurrence: .some(TodoRepeat(parsing: "daily"))))
            let next = try #require(try Self.complete(a, id, at: Self.at(10)))
            try Self.complete(b, id, at: Self.at(11))
            let after = try #require(try Self.complete(a, next.id, at: Self.at(12)))
            try Self.edit(b, next.id, TodoEdit(priority: .some(.low)), at: Self.at(13))
            try await a.sync(now: Self.at(20))
            try await b.sync(now: Self.at(21))
            try await a.sync(now: Self.at(22))
            let occurrence = try Self.todo(b, next.id)
            #expect(occurrence.isDone && occurrence.priority == .low)
            #expect(try b.todos().filter { $0.id == after.id }.count == 1)
            #expect(try a.todos() == b.todos())
        }
    }

    // MARK: - 3. Dates converge

    /// Completed on both replicas before either synced: the completion of
    /// the done mark kept (the later), and the earliest creation of the next
    /// occurrence, everywhere.
    @Test(arguments: Server.allCases)
    func twoCompletionsOfOneTodoEndWithTheSameDatesEverywhere(kind: Server) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b, TodoEdit(due: .some(.day(Self.day)), recurrence: .some(TodoRepeat(parsing: "weekly"))))
            let next = try #require(try Self.complete(b, id, at: Self.at(20)))
            try Self.complete(a, id, at: Self.at(10))
            try await b.sync(now: Self.at(30))
            try await a.sync(now: Self.at(31))
            try await b.sync(now: Self.at(32))
            #expect(try a.todos() == b.todos())
            #expect(try Self.todo(a, id).completedAt == Self.at(20))
            #expect(try Self.todo(a, next.id).createdAt == Self.at(10))
        }
    }

    /// An edit undone before any sync leaves the todo as if never made,
    /// `updatedAt` included; a tag added and removed again is an edit that
    /// every replica agrees on.
    @Test(arguments: Server.allCases)
    func anUndoneEditLeavesNoTraceAndATagTakenBackConverges(kind: Server) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b)
            let before = try Self.todo(a, id)
            try Self.edit(a, id, TodoEdit(text: "changed"), at: Self.at(10))
            _ = try a.db.undoLatest(force: false, at: Self.at(11))
            #expect(try Self.todo(a, id) == before)
            try await a.sync(now: Self.at(12))
            #expect(try Self.todo(a, id) == before)
            try Self.edit(b, id, TodoEdit(addTags: ["home"]), at: Self.at(20))
            try Self.edit(b, id, TodoEdit(removeTags: ["home"]), at: Self.at(21))
            try await b.sync(now: Self.at(22))
            try await a.sync(now: Self.at(23))
            #expect(try a.todos() == b.todos())
            #expect(try Self.todo(a, id).updatedAt == Self.at(21))
        }
    }

    /// An edit that a sync already sent, then undone: the undo is the newest
    /// edit, and wins over an edit made elsewhere before it.
    @Test(arguments: Server.allCases)
    func anUndoOfASyncedEditIsTheNewestEdit(kind: Server) async throws {
        try await Self.withReplicas(kind) { a, b in
            let id = try await Self.shared(a, b, TodoEdit(text: "first"))
            try Self.edit(a, id, TodoEdit(text: "second"), at: Self.at(10))
            try await a.sync(now: Self.at(11))
            try Self.edit(b, id, TodoEdit(text: "from b"), at: Self.at(12))
            try await b.sync(now: Self.at(13))
            _ = try a.db.undoLatest(force: false, at: Self.at(14))
            try await a.sync(now: Self.at(15))
            try await b.sync(now: Self.at(16))
            #expect(try Self.todo(a, id).text == "first")
            #expect(try a.todos() == b.todos())
        }
    }
}
