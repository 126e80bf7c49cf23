import Foundation

/// Keeps a view synced by itself: an action nobody presses, driving the
/// same `TodoLogic.sync` and the same state as `s` does.
///
/// - A server that announces its changes (`ChangeAnnouncing`) is listened
///   to: each announcement syncs at once; nothing else is sent while
///   nothing changes.
/// - One that does not is polled: every `Timing.every` while syncs bring
///   changes, backing off to every five minutes while nothing changes or it
///   cannot be reached (`SyncSchedule`).
/// - A local change (the view's or another `todo`'s, reported through
///   `localChangesMayHaveHappened`) is sent within `Timing.coalesce`;
///   changes made meanwhile, or during a sync, go in one more sync.
/// - A sync that fails shows offline (or the error) and is tried again with
///   a growing, jittered wait, at most a minute apart while listening.
///
/// Syncs never overlap: one loop runs them, one at a time. `stop()` ends it
/// after the sync in flight, never in the middle of one.
@MainActor
public final class LiveSync {
    public struct Timing: Sendable {
        /// How often a server that does not announce is asked, at the most.
        public var every: Duration
        /// How long local changes are gathered into one sync.
        public var coalesce: Duration

        public init(every: Duration = SyncSchedule.defaultEvery, coalesce: Duration = .milliseconds(30)) {
            self.every = every
            self.coalesce = coalesce
        }
    }

    public let logic: TodoLogic
    let syncer: any TodoSyncing
    let announcer: (any ChangeAnnouncing)?
    let timing: Timing
    let jitter: @Sendable () -> Double
    /// Called after a sync that changed something, for the view to reload.
    public var onChange: (@MainActor (SyncSummary) async -> Void)?
    /// Called after every sync with what it did or why it failed, and when
    /// the next one is due if nothing asks sooner (nil: when told of a change).
    public var onSyncEnded: (@MainActor (Result<SyncSummary, TodoError>, _ next: Duration?) -> Void)?

    /// The next sync makes the deletions the safety rail held back (`F` in the view).
    private var forcesNext = false
    /// When a sync was asked for (a local change, an announcement, a retry).
    private var requestedAt: ContinuousClock.Instant?
    /// When a server that is not listened to is asked next.
    private var pollAt: ContinuousClock.Instant?
    private var waiter: CheckedContinuation<Void, Never>?
    private var timer: Task<Void, Never>?
    private var schedule: SyncSchedule
    /// Failed syncs in a row.
    private var failures = 0
    /// The local change marker as the last successful sync began.
    private var sentMarker: Int64 = 0
    /// The marker as the sync running now began: what it sends.
    private var inFlightMarker: Int64?
    /// The server's announcements are arriving.
    private var listening = false
    /// The server announces nothing: it is asked every so often.
    private var isPolling = false
    private var stopping = false

    public init(
        logic: TodoLogic, syncer: any TodoSyncing, announcer: (any ChangeAnnouncing)?, timing: Timing = Timing(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.logic = logic
        self.syncer = syncer
        self.announcer = announcer
        self.timing = timing
        self.jitter = jitter
        self.schedule = SyncSchedule(every: timing.every)
    }

    var state: TodoState { logic.state }

    /// Syncs and listens until `stop()` (or the task is cancelled).
    public func run() async {
        isPolling = announcer == nil
        state.liveStatusChanged(isPolling ? .polling : .connecting)
        requestSync()
        let listener = Task { await self.listen() }
        await syncLoop()
        listener.cancel()
        state.liveStatusChanged(nil)
    }

    /// Ends `run()` once the sync in flight, if any, has ended.
    public func stop() {
        stopping = true
        wake()
    }

    /// Something may have written the database: sync soon if a local change waits to be sent.
    /// (While syncs fail, their retries send it.)
    public func localChangesMayHaveHappened() async {
        guard failures == 0, let marker = try? await syncer.localChangeMarker(),
              marker > max(sentMarker, inFlightMarker ?? 0) else { return }
        requestSync(after: timing.coalesce)
    }

    /// A sync at once (`s`), or after `delay`; an earlier request stands.
    public func requestSync(after delay: Duration = .zero) {
        let at = ContinuousClock.now + delay
        if requestedAt.map({ at < $0 }) ?? true {
            requestedAt = at
            wake()
        }
    }

    /// A sync at once that makes the deletions the last one held back
    /// (`SyncSummary.heldBack`), as `todo sync --force` would.
    public func requestForcedSync() {
        forcesNext = true
        requestSync()
    }

    /// When the next sync runs: the earliest request, or the next poll
    /// while the server's announcements are not arriving.
    private var dueAt: ContinuousClock.Instant? {
        let poll = listening ? nil : pollAt
        guard let requestedAt else { return poll }
        return poll.map { min($0, requestedAt) } ?? requestedAt
    }

    // MARK: - Syncing

    private func syncLoop() async {
        await withTaskCancellationHandler {
            while !Task.isCancelled, !stopping {
                if let due = dueAt, due <= .now {
                    requestedAt = nil
                    pollAt = nil
                    await syncOnce()
                } else {
                    await pause()
                }
            }
        } onCancel: {
            Task { @MainActor in self.wake() }
        }
    }

    private func syncOnce() async {
        let marker = (try? await syncer.localChangeMarker()) ?? nil
        inFlightMarker = marker
        let force = forcesNext
        forcesNext = false
        let outcome = await logic.syncInBackground(with: syncer, force: force)
        inFlightMarker = nil
        var next: Duration?
        switch outcome {
        case .failure:
            failures += 1
            if isPolling {
                schedule.record(.failed)
                next = schedule.delay(jitter: jitter())
            } else {
                next = SyncSchedule.retryDelay(failures: failures, jitter: jitter())
            }
            requestSync(after: next ?? .zero)
        case .success(let summary):
            failures = 0
            sentMarker = max(sentMarker, marker ?? 0)
            state.liveStatusChanged(listening ? .live : isPolling ? .polling : .connecting)
            if summary.movedAnything { await onChange?(summary) }
            // Asked again later unless announcements arrive meanwhile.
            schedule.record(summary.movedAnything ? .changed : .unchanged)
            let delay = schedule.delay(jitter: jitter())
            pollAt = .now + delay
            if !listening { next = delay }
        }
        onSyncEnded?(outcome, next)
        // An edit made during the sync goes in the next one.
        await localChangesMayHaveHappened()
    }

    /// Waits until `dueAt`, or until a request, a change of listening or cancellation wakes it.
    private func pause() async {
        await withCheckedContinuation { continuation in
            waiter = continuation
            if let due = dueAt {
                timer = Task { [weak self] in
                    try? await Task.sleep(until: due, clock: .continuous)
                    if !Task.isCancelled { self?.wake() }
                }
            }
        }
    }

    private func wake() {
        timer?.cancel()
        timer = nil
        waiter?.resume()
        waiter = nil
    }

    // MARK: - Listening

    /// How long a stream must stay up before its loss counts as the first.
    static let stableStream: Duration = .seconds(30)

    /// Listens to the server's announcements, connecting again after each
    /// loss with a growing wait; polls instead when it announces nothing.
    private func listen() async {
        guard let announcer else {
            isPolling = true
            return
        }
        var losses = 0
        var listeningSince = ContinuousClock.now
        while !Task.isCancelled {
            do {
                for try await announcement in announcer.announcements() {
                    switch announcement {
                    case .listening:
                        // What changed since the last event is announced
                        // next (the announcer resumes), so no sync is needed.
                        listeningSince = .now
                        listening = true
                        wake()
                        if state.live == .connecting { state.liveStatusChanged(.live) }
                    case .changed, .resync:
                        requestSync()
                    }
                }
            } catch is ChangeAnnouncementsUnavailable {
                listening = false
                isPolling = true
                wake()
                if state.live == .connecting || state.live == .live { state.liveStatusChanged(.polling) }
                return
            } catch {
                // Lost, or never made: a sync tells whether the server is away.
            }
            if Task.isCancelled { return }
            // A stream that stayed up a while was lost once: connect again at
            // once; one that keeps dropping waits longer each time.
            let stayedUp = listening && ContinuousClock.now - listeningSince > Self.stableStream
            losses = stayedUp ? 1 : losses + 1
            if listening {
                listening = false
                if state.live == .live { state.liveStatusChanged(.connecting) }
                // Is the server away? A sync tells (as often as the waits
                // below allow), and until the stream is back the server is
                // polled; while syncs fail, their own retries go on.
                if failures == 0 { requestSync() }
            }
            try? await Task.sleep(for: SyncSchedule.retryDelay(failures: losses, jitter: jitter()))
        }
    }
}
