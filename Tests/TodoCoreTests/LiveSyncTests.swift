import Foundation
import Synchronization
import Testing
import TodoCore
import TodoCoreTestSupport

/// `LiveSync` against fakes that count syncs and script the server's
/// announcements and failures: when it syncs, and what the state shows.
/// (The same loop against a real todo-server and two real `todo ui`s:
/// TodoCLITests' LiveUITests.)
@MainActor
@Suite("A live view's sync")
struct LiveSyncTests {
    /// Counts syncs; local changes are numbered as the sync queue numbers
    /// them, and a sync sends those made before it began.
    /// On the main actor, as `LiveSync` is: nothing here waits for the
    /// shared pool, which the suites that wait on processes can hold for
    /// minutes on CI's two cores (a full run once saw no sync start in 280 s).
    @MainActor
    final class FakeSyncer: TodoSyncing {
        struct Record {
            var started = 0
            var ended = 0
            var startTimes: [ContinuousClock.Instant] = []
            var queued: Int64?
            var lastChange: Int64 = 0
            var failure: TodoError?
            var length: Duration = .zero
            /// A sync started while this holds waits until it does not.
            var held = false
            /// Whether each sync was forced, in order.
            var forced: [Bool] = []
        }
        let record = Mutex(Record())

        func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
            let (sent, length, failure) = record.withLock { record in
                record.started += 1
                record.forced.append(force)
                record.startTimes.append(.now)
                return (record.queued, record.length, record.failure)
            }
            try await Task.sleep(for: length)
            while record.withLock({ $0.held }) { try await Task.sleep(for: .milliseconds(5)) }
            defer { record.withLock { $0.ended += 1 } }
            if let failure { throw failure }
            var summary = SyncSummary()
            record.withLock { record in
                if record.queued == sent { record.queued = nil }
                summary.pushed = sent == nil ? 0 : 1
            }
            return summary
        }

        func localChangeMarker() async throws -> Int64? { record.withLock { $0.queued } }

        func change() {
            record.withLock { record in
                record.lastChange += 1
                record.queued = record.lastChange
            }
        }

        var started: Int { record.withLock { $0.started } }
        var ended: Int { record.withLock { $0.ended } }
    }

    /// The server's announcements, as the test says them; each connection is a new stream.
    final class FakeAnnouncer: ChangeAnnouncing {
        let current = Mutex<AsyncThrowingStream<ChangeAnnouncement, any Error>.Continuation?>(nil)
        let unavailable: Bool

        init(unavailable: Bool = false) {
            self.unavailable = unavailable
        }

        func announcements() -> AsyncThrowingStream<ChangeAnnouncement, any Error> {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: ChangeAnnouncement.self)
            if unavailable {
                continuation.finish(throwing: ChangeAnnouncementsUnavailable())
            } else {
                current.withLock { $0 = continuation }
            }
            return stream
        }

        func say(_ announcement: ChangeAnnouncement) {
            current.withLock { _ = $0?.yield(announcement) }
        }
    }

    func makeLive(
        _ syncer: FakeSyncer, _ announcer: FakeAnnouncer?, every: Duration = .seconds(30), coalesce: Duration = .milliseconds(30)
    ) -> LiveSync {
        let logic = TodoLogic(state: TodoState(), storage: InMemoryStorage())
        return LiveSync(
            logic: logic, syncer: syncer, announcer: announcer, timing: LiveSync.Timing(every: every, coalesce: coalesce), jitter: { 0.5 }
        )
    }

    /// Waits (at most a minute: a loaded machine is slow, never wrong) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Runs `live` until the test ends, listening once its first sync is done.
    func startListening(_ live: LiveSync, _ syncer: FakeSyncer, _ announcer: FakeAnnouncer) async throws -> Task<Void, Never> {
        let running = Task { await live.run() }
        try await eventually { announcer.current.withLock { $0 != nil } }
        announcer.say(.listening)
        try await eventually { live.logic.state.live == .live && syncer.ended >= 1 }
        return running
    }

    @Test func announcedChangesSyncAtOnceAndNothingElseIsSent() async throws {
        let syncer = FakeSyncer()
        let announcer = FakeAnnouncer()
        let live = makeLive(syncer, announcer)
        let running = try await startListening(live, syncer, announcer)
        defer { running.cancel() }
        #expect(live.logic.state.live == .live)
        let first = syncer.started
        try await Task.sleep(for: .milliseconds(300))
        #expect(syncer.started == first, "a sync nobody asked for")
        announcer.say(.changed(cursor: "7"))
        try await eventually { syncer.ended == first + 1 }
        #expect(syncer.ended == first + 1)
        #expect(live.logic.state.lastSyncedAt != nil)
    }

    /// `F` in the view: one sync at once that makes the held deletions; the ones after it are guarded again.
    @Test func aForcedSyncIsOneSyncAtOnceAndTheNextIsGuardedAgain() async throws {
        let syncer = FakeSyncer()
        let announcer = FakeAnnouncer()
        let live = makeLive(syncer, announcer)
        let running = try await startListening(live, syncer, announcer)
        defer { running.cancel() }
        let first = syncer.started
        live.requestForcedSync()
        try await eventually { syncer.ended == first + 1 }
        announcer.say(.changed(cursor: "8"))
        try await eventually { syncer.ended == first + 2 }
        let forced = syncer.record.withLock { $0.forced }
        #expect(forced.count == first + 2)
        #expect(forced.suffix(2) == [true, false])
        #expect(!forced.prefix(first).contains(true))
    }

    @Test func changesMadeWhileASyncRunsGoTogetherInTheNextOne() async throws {
        let syncer = FakeSyncer()
        let announcer = FakeAnnouncer()
        let live = makeLive(syncer, announcer)
        let running = try await startListening(live, syncer, announcer)
        defer { running.cancel() }

        // A sync held open (as a slow server would) while ten changes are made here.
        syncer.record.withLock { $0.held = true }
        announcer.say(.changed(cursor: "9"))
        try await eventually { syncer.started == 2 }
        for _ in 0..<10 {
            syncer.change()
            await live.localChangesMayHaveHappened()
        }
        syncer.record.withLock { $0.held = false }
        // One more sync sends all ten, and then nothing waits.
        try await eventually { syncer.ended == 3 }
        #expect(syncer.record.withLock { $0.queued } == nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(syncer.started == 3)
    }

    @Test func aServerThatAnnouncesNothingIsPolledLessOftenWhileNothingChanges() async throws {
        let syncer = FakeSyncer()
        let live = makeLive(syncer, FakeAnnouncer(unavailable: true), every: .milliseconds(50))
        let running = Task { await live.run() }
        defer { running.cancel() }
        try await eventually { syncer.started >= 3 }
        #expect(live.logic.state.live == .polling)
        let first = try #require(syncer.record.withLock { $0.startTimes.first })
        try await Task.sleep(until: first + .milliseconds(1_500))
        let times = syncer.record.withLock { $0.startTimes }
        // Never more often than asked; and less often while nothing changes:
        // every 50 ms would be 30 syncs in 1.5 s, backing off (100, 200, 400,
        // 800 ms) is 5 at most.
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 >= .milliseconds(49) })
        #expect(times.filter { $0 < first + .milliseconds(1_500) }.count <= 5)
    }

    @Test func anUnreachableServerShowsOfflineNotAnErrorAndIsTriedAgain() async throws {
        let syncer = FakeSyncer()
        syncer.record.withLock { $0.failure = .unavailable("cannot reach http://127.0.0.1:9: connection refused") }
        syncer.change()
        let announcer = FakeAnnouncer()
        let live = makeLive(syncer, announcer)
        let running = Task { await live.run() }
        defer { running.cancel() }
        try await eventually { syncer.ended >= 1 }
        try await eventually { live.logic.state.live == .offline }
        #expect(live.logic.state.live == .offline)
        #expect(live.logic.state.error == nil)
        // The server is back: the retry (within a second here) sends what waited.
        syncer.record.withLock { $0.failure = nil }
        try await eventually { syncer.record.withLock { $0.queued } == nil }
        #expect(syncer.record.withLock { $0.queued } == nil)
        #expect(live.logic.state.live != .offline)

        // Another failure is shown as the error it is.
        syncer.record.withLock { $0.failure = .failed("401: the token is wrong") }
        announcer.say(.listening)
        announcer.say(.changed(cursor: "3"))
        try await eventually { live.logic.state.live == .failing }
        #expect(live.logic.state.error == .failed("401: the token is wrong"))
    }

    @Test func stopEndsAfterTheSyncInFlight() async throws {
        let syncer = FakeSyncer()
        syncer.record.withLock { $0.length = .milliseconds(300) }
        let live = makeLive(syncer, nil)
        let running = Task { await live.run() }
        try await eventually { syncer.started == 1 }
        live.stop()
        await running.value
        #expect(syncer.ended == 1)
        #expect(live.logic.state.live == nil)
    }
}
