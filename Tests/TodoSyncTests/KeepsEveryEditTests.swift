import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// The ways a randomized three-replica search found replicas disagreeing or
/// an edit lost, each as it was reproduced by hand: a write the server
/// stored whose answer was lost, completion times a CalDAV server keeps to
/// the second, a server that answers 423 Locked, and a sync-collection that
/// leaves out a task created and deleted since the token a failed sync kept.
@Suite(.threadsOfTheirOwn, .serialized)
struct KeepsEveryEditTests {
    static let start = Date(timeIntervalSince1970: 1_795_253_400)

    static func edit(_ replica: Replica, _ id: UUID, _ edit: TodoEdit, at date: Date) throws {
        let item = try #require(try replica.todos().first { $0.id == id })
        try replica.db.updateTodos([try item.applying(edit, at: date)])
    }

    static func todo(_ replica: Replica, _ id: UUID) throws -> TodoItem? {
        try replica.todos().first { $0.id == id }
    }

    // MARK: - A write the server stored, its answer lost

    /// How `b`'s killed sync found the list: x the only todo (no base
    /// recorded at all), or beside two todos synced before.
    enum Write: CaseIterable, Sendable { case createAlone, createBesideOthers, addTag }

    /// `b` creates x tagged g1 g2 (or adds g2 to it) and its sync is killed
    /// after the server stored that write; `b` then removes g2 while `c`
    /// adds g5: both changes apply, everywhere.
    static func aRemovedTagStaysRemoved(
        through base: any HTTPTransport, server: String, login: CalDAVLogin? = nil, cutting: Set<String>, write: Write
    ) async throws {
        let cut = CutAfterApplying(base)
        let b = try Replica(transport: cut, server: server, login: login)
        let c = try Replica(transport: cut, server: server, login: login)
        if write != .createAlone {
            try b.add("water plants")
            try b.add("call mom")
            try await b.sync()
        }
        let create = write != .addTag
        let x = UUID()
        if create {
            try b.db.insertTodo(TodoItem(id: x, text: "x", createdAt: start, tags: ["g1", "g2"]))
        } else {
            try b.db.insertTodo(TodoItem(id: x, text: "x", createdAt: start, tags: ["g1"]))
            try await b.sync()
            try edit(b, x, TodoEdit(addTags: ["g2"]), at: start + 1)
        }
        await cut.cut(cutting, holding: "g2")
        _ = try? await b.sync()
        await cut.cut([])
        try await c.sync()
        #expect(try todo(c, x)?.tags == ["g1", "g2"])
        try edit(b, x, TodoEdit(removeTags: ["g2"]), at: start + 2)
        try edit(c, x, TodoEdit(addTags: ["g5"]), at: start + 3)
        try await c.sync()
        try await b.sync()
        try await c.sync()
        try await b.sync()
        for replica in [b, c] {
            #expect(try todo(replica, x)?.tags == ["g1", "g5"])
        }
    }

    @Test(arguments: Write.allCases)
    func aRemovedTagStaysRemovedThroughAJSONServer(write: Write) async throws {
        try await Self.aRemovedTagStaysRemoved(through: FakeJSONServer(.v1), server: "http://fake", cutting: ["POST", "PATCH"], write: write)
    }

    @Test(arguments: Write.allCases)
    func aRemovedTagStaysRemovedThroughACalDAVList(write: Write) async throws {
        try await Self.aRemovedTagStaysRemoved(
            through: FakeCalDAVServer(), server: FakeCalDAVServer.server, cutting: ["PUT"], write: write
        )
    }

    @Test(arguments: Write.allCases)
    func aRemovedTagStaysRemovedThroughTodoServer(write: Write) async throws {
        try await withLiveTodoServer { url in
            try await Self.aRemovedTagStaysRemoved(
                through: AsyncHTTPTransport(timeout: .seconds(10)), server: url, cutting: ["POST", "PATCH", "PUT"], write: write
            )
        }
    }

    /// The same for blockers, the other set: a blocker removed after a lost
    /// answer stays removed, one added elsewhere arrives.
    @Test func aRemovedBlockerStaysRemoved() async throws {
        let cut = CutAfterApplying(FakeJSONServer(.v1))
        let b = try Replica(transport: cut, server: "http://fake")
        let c = try Replica(transport: cut, server: "http://fake")
        let (x, y, z) = (UUID(), UUID(), UUID())
        try b.db.insertTodo(TodoItem(id: y, text: "y", createdAt: Self.start))
        try b.db.insertTodo(TodoItem(id: z, text: "z", createdAt: Self.start))
        try b.db.insertTodo(TodoItem(id: x, text: "x", createdAt: Self.start, blockedBy: [y]))
        try await b.sync()
        try await c.sync()
        try Self.edit(b, x, TodoEdit(addBlockers: [z.lowercasedString]), at: Self.start + 1)
        await cut.cut(["PATCH"])
        _ = try? await b.sync()
        await cut.cut([])
        try Self.edit(b, x, TodoEdit(removeBlockers: [z.lowercasedString]), at: Self.start + 2)
        try await c.sync()
        try Self.edit(c, x, TodoEdit(removeBlockers: [y.lowercasedString]), at: Self.start + 3)
        for replica in [c, b, c, b] { try await replica.sync() }
        for replica in [b, c] {
            #expect(try Self.todo(replica, x)?.blockedBy == [])
        }
    }

    /// The merge over a write whose answer never came, element by element.
    @Test func theBaseOfASetSentWithoutAnAnswer() {
        // Created with g1 g2 (no base), stored: the server's g5 is another's.
        #expect(Set(SyncPlanner.setBase(sent: ["g1", "g2"], base: nil, remote: ["g1", "g2", "g5"])) == ["g1", "g2"])
        // Never stored: what the write added is not in the base, so it is still added.
        #expect(Set(SyncPlanner.setBase(sent: ["g1", "g3"], base: ["g1"], remote: ["g1"])) == ["g1"])
        #expect(Set(SyncPlanner.mergedSet(base: ["g1"], local: ["g1", "g3"], remote: ["g1"])) == ["g1", "g3"])
        // A removal that was stored and one that was not.
        #expect(SyncPlanner.setBase(sent: ["g1"], base: ["g1", "g2"], remote: ["g1"]) == ["g1"])
        #expect(Set(SyncPlanner.setBase(sent: ["g1"], base: ["g1", "g2"], remote: ["g1", "g2"])) == ["g1", "g2"])
    }

    // MARK: - Times a CalDAV server keeps to the second

    /// `a` completes x while `b` edits its due date: every replica ends
    /// with the completion time `a` made, to the millisecond, whichever
    /// syncs first; the server's COMPLETED holds it to the second.
    @Test(arguments: [true, false])
    func aCompletionKeepsItsMillisecondsThroughACalDAVList(completerFirst: Bool) async throws {
        let server = FakeCalDAVServer()
        try await Self.aCompletionKeepsItsMilliseconds(
            through: CalDAVPlace(transport: server, server: FakeCalDAVServer.server) { await server.text(of: $0) },
            completerFirst: completerFirst
        )
    }

    static func aCompletionKeepsItsMilliseconds(through place: CalDAVPlace, completerFirst: Bool) async throws {
        let a = try place.replica()
        let b = try place.replica()
        let x = UUID()
        try a.add("water plants")
        try a.db.insertTodo(TodoItem(id: x, text: "x", createdAt: Self.start.addingTimeInterval(0.311)))
        try await a.sync()
        try await b.sync()
        let completed = Self.start.addingTimeInterval(60.028).roundedToMilliseconds
        let item = try #require(try Self.todo(a, x))
        try a.db.updateTodos([item.marking(done: true, at: completed)])
        try Self.edit(b, x, TodoEdit(due: .some(.day(CalendarDay(year: 2026, month: 12, day: 1)!))), at: Self.start + 61)
        let order = completerFirst ? [a, b, a, b] : [b, a, b, a]
        for replica in order { try await replica.sync() }
        for replica in [a, b] {
            let todo = try #require(try Self.todo(replica, x))
            #expect(todo.completedAt == completed)
            #expect(todo.createdAt == Self.start.addingTimeInterval(0.311).roundedToMilliseconds)
            #expect(todo.due == .day(CalendarDay(year: 2026, month: 12, day: 1)!))
        }
        #expect(try Self.todo(a, x) == (try Self.todo(b, x)))
        let stored = try #require(await place.text(x.lowercasedString + ".ics"))
        let text = stored.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        #expect(text.contains("COMPLETED:20261121T093100Z"))
        #expect(text.contains("completed=2026-11-21T09:31:00.028Z"))
    }

    // MARK: - A server that answers 423 Locked

    /// A server that locks its list while it stores a write: the sync
    /// retries, then sends one write at a time, and every todo arrives.
    @Test func aServerThatLocksWhileWritingGetsEveryWriteOneAtATime() async throws {
        let server = FakeCalDAVServer()
        await server.setLocksConcurrentWrites(true)
        let a = try Replica(transport: server, server: FakeCalDAVServer.server)
        for number in 0..<40 { try a.add("todo \(number)") }
        try await a.sync()
        #expect(await server.lockedAnswers > 0)
        #expect(await server.mostWritesAtOnceAfterALock == 1)
        #expect(await server.names.count == 40)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 0)
        let b = try Replica(transport: server, server: FakeCalDAVServer.server)
        try await b.sync()
        #expect(try b.todos().count == 40)
    }

    /// A server that stays locked: the sync says so in one line, and every
    /// change stays queued for the next, which sends it.
    @Test func aServerLockedForGoodLeavesEverythingToSendNextTime() async throws {
        let server = FakeCalDAVServer()
        let a = try Replica(transport: server, server: FakeCalDAVServer.server)
        try a.add("water plants")
        try a.add("call mom")
        await server.setLockedForGood(true)
        await #expect {
            try await a.sync()
        } throws: { error in
            guard let error = error as? SyncError, case .httpStatus(_, 423, _) = error else { return false }
            return !error.description.contains("\n") && error.description.contains("changes stay queued")
        }
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 2)
        await server.setLockedForGood(false)
        try await a.sync()
        #expect(await server.names.count == 2)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 0)
    }

    /// 423 and a 503 that says when to come back are retried for any
    /// method, the pause no shorter than the server asked for; a 503
    /// without Retry-After is not retried for a POST.
    @Test func lockedAndRetryAfterAnswersAreRetried() async throws {
        let answers = ScriptedAnswers([
            HTTPResponseData(status: 423), HTTPResponseData(status: 503, headers: ["Retry-After": "2"]), HTTPResponseData(status: 201),
        ])
        let pauses = PauseLog()
        let transport = RetryingTransport(answers, delays: [.zero, .zero, .zero], sleep: { await pauses.add($0) })
        let response = try await transport.send(HTTPRequestData(method: "POST", url: "http://fake/todos", body: []))
        #expect(response.status == 201)
        #expect(await pauses.pauses == [.zero, .seconds(2)])
        let plain = ScriptedAnswers([HTTPResponseData(status: 503), HTTPResponseData(status: 201)])
        let once = RetryingTransport(plain, delays: [.zero], sleep: { _ in })
        #expect(try await once.send(HTTPRequestData(method: "POST", url: "http://fake/todos", body: [])).status == 503)
    }

    // MARK: - A sync that did not finish, and a sync-collection that omits

    /// `a`'s sync pulls `c`'s new x, then fails on a write; `c` deletes x.
    /// The server's sync-collection from `a`'s old token leaves x out; `a`'s
    /// next sync reads the whole list and deletes x, or, where `a` edited x
    /// meanwhile, keeps it (an edit beats a delete) and sends it back.
    @Test(arguments: [false, true])
    func aTodoPulledByASyncThatFailedIsDeletedOnceGone(editedHere: Bool) async throws {
        let server = FakeCalDAVServer()
        await server.setOmitsShortLived(true)
        try await Self.aTodoPulledByASyncThatFailedIsDeletedOnceGone(
            through: CalDAVPlace(transport: server, server: FakeCalDAVServer.server) { await server.text(of: $0) },
            editedHere: editedHere
        )
    }

    static func aTodoPulledByASyncThatFailedIsDeletedOnceGone(through place: CalDAVPlace, editedHere: Bool) async throws {
        let refusing = RefusingWrites(place.transport)
        let a = try place.replica(through: refusing)
        let c = try place.replica(through: refusing)
        try c.add("water plants")
        try c.add("call mom")
        try c.add("pay rent")
        try await c.sync()
        try await a.sync()
        let x = UUID()
        try c.db.insertTodo(TodoItem(id: x, text: "x", createdAt: Self.start))
        try await c.sync()
        // a has something to send, and the server refuses it after a pulled x.
        let other = try #require(try a.todos().first { $0.text == "pay rent" })
        try a.db.updateTodos([other.editing(text: "pay the rent", at: Self.start + 1)])
        await refusing.refuse(true)
        _ = try? await a.sync()
        await refusing.refuse(false)
        #expect(try Self.todo(a, x) != nil)
        try c.db.deleteTodos(ids: [x])
        try await c.sync()
        if editedHere { try Self.edit(a, x, TodoEdit(text: "x, edited"), at: Self.start + 2) }
        try await a.sync()
        try await a.sync()
        try await c.sync()
        for replica in [a, c] {
            #expect(try Self.todo(replica, x)?.text == (editedHere ? "x, edited" : nil))
            #expect(try replica.todos().contains { $0.text == "pay the rent" })
        }
        #expect((await place.text(x.lowercasedString + ".ics") != nil) == editedHere)
    }

    /// `a` creates x and syncs; `c` pulls it, deletes it and syncs. A server
    /// whose sync-collection leaves out what was created and deleted since
    /// `a`'s token (Radicale's does) names nothing to `a`, and x answers 404:
    /// lost, or deleted elsewhere? Sent again once, and gone again, it is
    /// deleted everywhere; nothing goes back and forth for good.
    @Test func aCreateDeletedElsewhereStaysDeletedThroughAListThatOmits() async throws {
        let server = FakeCalDAVServer()
        await server.setOmitsShortLived(true)
        try await Self.aCreateDeletedElsewhereStaysDeleted(
            through: CalDAVPlace(transport: server, server: FakeCalDAVServer.server) { await server.text(of: $0) }
        )
    }

    static func aCreateDeletedElsewhereStaysDeleted(through place: CalDAVPlace) async throws {
        let a = try place.replica()
        let c = try place.replica()
        try a.add("water plants")
        try a.add("call mom")
        try await a.sync()
        try await c.sync()
        let x = UUID()
        try a.db.insertTodo(TodoItem(id: x, text: "milk", createdAt: Self.start))
        try await a.sync()
        try await c.sync()
        #expect(try Self.todo(c, x) != nil)
        try c.db.deleteTodos(ids: [x])
        try await c.sync()
        for _ in 0..<3 {
            try await a.sync()
            try await c.sync()
        }
        for replica in [a, c] {
            #expect(try Self.todo(replica, x) == nil)
            #expect(try replica.todos().count == 2)
            #expect(try await SQLiteSyncStore(replica.db).pendingCount() == 0)
        }
        #expect(await place.text(x.lowercasedString + ".ics") == nil)
    }
}

/// The same reproductions against a real CalDAV server.
@Suite(.threadsOfTheirOwn, .serialized, .enabled(if: Radicale.installed, "Radicale is not in .build/venv: bash .ci/run installs it"))
struct KeepsEveryEditOnRadicaleTests {
    static func radicale() async throws -> (Radicale, CalDAVPlace) {
        let server = try Radicale()
        try await server.start()
        try await server.makeCalendars()
        let place = CalDAVPlace(
            transport: AsyncHTTPTransport(timeout: .seconds(20)), server: server.list, login: CalDAVLogin(user: "alice", password: "secret")
        ) { name in
            let got = try? await server.curl(["\(server.origin)/alice/tasks/\(name)"])
            return got?.status == "200" ? got?.body : nil
        }
        return (server, place)
    }

    // One case each where the fakes run several: Radicale takes seconds a test.
    @Test(arguments: [KeepsEveryEditTests.Write.createBesideOthers])
    func aRemovedTagStaysRemoved(write: KeepsEveryEditTests.Write) async throws {
        let (server, place) = try await Self.radicale()
        try await KeepsEveryEditTests.aRemovedTagStaysRemoved(
            through: place.transport, server: place.server, login: place.login, cutting: ["PUT"], write: write
        )
        withExtendedLifetime(server) {}
    }

    @Test(arguments: [true])
    func aCompletionKeepsItsMilliseconds(completerFirst: Bool) async throws {
        let (server, place) = try await Self.radicale()
        try await KeepsEveryEditTests.aCompletionKeepsItsMilliseconds(through: place, completerFirst: completerFirst)
        withExtendedLifetime(server) {}
    }

    @Test(arguments: [false, true])
    func aTodoPulledByASyncThatFailedIsDeletedOnceGone(editedHere: Bool) async throws {
        let (server, place) = try await Self.radicale()
        try await KeepsEveryEditTests.aTodoPulledByASyncThatFailedIsDeletedOnceGone(through: place, editedHere: editedHere)
        withExtendedLifetime(server) {}
    }

    @Test func aCreateDeletedElsewhereStaysDeleted() async throws {
        let (server, place) = try await Self.radicale()
        try await KeepsEveryEditTests.aCreateDeletedElsewhereStaysDeleted(through: place)
        withExtendedLifetime(server) {}
    }
}

/// A CalDAV task list the reproductions run against: how to reach it, and
/// how to read one of its objects as stored.
struct CalDAVPlace: Sendable {
    let transport: any HTTPTransport
    let server: String
    var login: CalDAVLogin? = nil
    let text: @Sendable (String) async -> String?

    init(
        transport: any HTTPTransport, server: String, login: CalDAVLogin? = nil, text: @escaping @Sendable (String) async -> String?
    ) {
        self.transport = transport
        self.server = server
        self.login = login
        self.text = text
    }

    func replica(through wrapper: (any HTTPTransport)? = nil) throws -> Replica {
        try Replica(transport: wrapper ?? transport, server: server, login: login)
    }
}

/// Forwards every request; the first write of the methods named whose
/// body holds `marker` is applied by the server and its answer lost, and
/// nothing is sent after it: the sync was killed there.
actor CutAfterApplying: HTTPTransport {
    let base: any HTTPTransport
    private var methods: Set<String> = []
    private var marker = ""
    private var killed = false

    init(_ base: any HTTPTransport) { self.base = base }

    func cut(_ methods: Set<String>, holding marker: String = "") {
        self.methods = methods
        self.marker = marker
        killed = false
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        if killed { throw TransportError(.connectionClosed, "killed") }
        let response = try await base.send(request)
        let marked = marker.isEmpty || String(decoding: request.body ?? [], as: UTF8.self).contains(marker)
        if methods.contains(request.method), marked {
            killed = true
            throw TransportError(.connectionClosed, "cut after the server took it")
        }
        return response
    }
}

/// Refuses every write with 403 while `refuse` is on, as a server that
/// does not let this account write one task refuses it.
actor RefusingWrites: HTTPTransport {
    let base: any HTTPTransport
    private var refusing = false

    init(_ base: any HTTPTransport) { self.base = base }

    func refuse(_ on: Bool) { refusing = on }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        if refusing, request.isWrite { return HTTPResponseData(status: 403, body: Array("Forbidden".utf8)) }
        return try await base.send(request)
    }
}

/// Answers each request with the next of `answers`.
actor ScriptedAnswers: HTTPTransport {
    private var answers: [HTTPResponseData]

    init(_ answers: [HTTPResponseData]) { self.answers = answers }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        answers.isEmpty ? HTTPResponseData(status: 599) : answers.removeFirst()
    }
}

actor PauseLog {
    private(set) var pauses: [Duration] = []
    func add(_ pause: Duration) { pauses.append(pause) }
}
