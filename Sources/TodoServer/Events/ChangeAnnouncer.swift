import Foundation
import Synchronization

/// What an event stream is told next.
enum StreamEvent: Sendable, Equatable {
    /// The account's change feed moved to `cursor`.
    case changed(cursor: Int)
    /// Nothing changed for a while: a comment line keeps the connection open.
    case heartbeat
}

/// Fans the server's change signals out to the open event streams
/// (`GET /todos/events`), each to its own account's listeners only.
///
/// A listener keeps one pending cursor, never a queue: a client that stops
/// reading holds one number, whatever the number of changes, and gets the
/// latest when it reads again. The watcher and the heartbeat run only while
/// someone listens; with nobody listening, nothing runs.
public final class ChangeAnnouncer: Sendable {
    /// How many streams may be open at once.
    public struct Limits: Sendable, Equatable {
        public var total: Int
        public var perAccount: Int

        public init(total: Int = 10_000, perAccount: Int = 20) {
            self.total = total
            self.perAccount = perAccount
        }
    }

    let watcher: any ChangeWatcher
    let heartbeat: Duration
    let limits: Limits
    private let state = Mutex(State())

    struct Listener {
        let account: AccountID
        /// The latest cursor the stream was told, or will be.
        var known: Int
        /// A change not yet taken by the stream.
        var pending: Int?
        var heartbeatDue = false
        var waiter: CheckedContinuation<StreamEvent?, Never>?
    }

    struct State {
        var listeners: [Int: Listener] = [:]
        var byAccount: [AccountID: Set<Int>] = [:]
        var nextID = 0
        /// Accounts nudged and not yet read; nil inside: all of them.
        var dirty: Set<AccountID>? = []
        var running: Task<Void, Never>?
        /// Wakes the running loop that reads counters after a nudge (one stream per run:
        /// a cancelled run's stream is finished for good).
        var nudges: AsyncStream<Void>.Continuation?
    }

    public init(watcher: any ChangeWatcher, heartbeat: Duration = .seconds(30), limits: Limits = Limits()) {
        self.watcher = watcher
        self.heartbeat = heartbeat
        self.limits = limits
    }

    deinit {
        state.withLock { $0.running?.cancel() }
    }

    /// How many streams are open, in all.
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    // MARK: Listening

    /// Opens a listener for `account` that has been told `known`; 429 past the limits.
    func listen(account: AccountID, known: Int) throws -> Subscription {
        let id = try state.withLock { state -> Int in
            guard state.listeners.count < limits.total else {
                throw ServerError.tooManyStreams("This server has \(limits.total) event streams open, its limit")
            }
            guard state.byAccount[account, default: []].count < limits.perAccount else {
                throw ServerError.tooManyStreams("This account has \(limits.perAccount) event streams open, the limit for one account")
            }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = Listener(account: account, known: known)
            state.byAccount[account, default: []].insert(id)
            if state.running == nil {
                state.running = Task { [weak self] in await self?.run() }
            }
            return id
        }
        return Subscription(announcer: self, id: id)
    }

    /// A stream's end: its listener goes, and with the last one the watch stops.
    func close(_ id: Int) {
        state.withLock { state in
            guard let listener = state.listeners.removeValue(forKey: id) else { return }
            listener.waiter?.resume(returning: nil)
            state.byAccount[listener.account]?.remove(id)
            if state.byAccount[listener.account]?.isEmpty == true { state.byAccount[listener.account] = nil }
            if state.listeners.isEmpty {
                state.running?.cancel()
                state.running = nil
            }
        }
    }

    /// The next event for listener `id`: nil once it is closed.
    func next(_ id: Int) async -> StreamEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<StreamEvent?, Never>) in
                state.withLock { state in
                    guard var listener = state.listeners[id] else {
                        return continuation.resume(returning: nil)
                    }
                    if let cursor = listener.pending {
                        listener.pending = nil
                        listener.heartbeatDue = false
                        continuation.resume(returning: .changed(cursor: cursor))
                    } else if listener.heartbeatDue {
                        listener.heartbeatDue = false
                        continuation.resume(returning: .heartbeat)
                    } else {
                        listener.waiter = continuation
                    }
                    state.listeners[id] = listener
                }
            }
        } onCancel: {
            close(id)
        }
    }

    /// Tells listeners of `account` that its feed stands at `cursor`, each
    /// at most once per cursor. `only` limits it to one listener.
    func announce(_ account: AccountID, cursor: Int, only: Int? = nil) {
        state.withLock { state in
            for id in only.map({ [$0] }) ?? Array(state.byAccount[account] ?? []) {
                guard var listener = state.listeners[id], listener.account == account, cursor > listener.known else { continue }
                listener.known = cursor
                if let waiter = listener.waiter {
                    listener.waiter = nil
                    listener.heartbeatDue = false
                    waiter.resume(returning: .changed(cursor: cursor))
                } else {
                    listener.pending = cursor
                }
                state.listeners[id] = listener
            }
        }
    }

    /// Sets what listener `id`'s client has been told, dropping a pending
    /// change no newer than that.
    func settle(_ id: Int, known: Int) {
        state.withLock { state in
            guard var listener = state.listeners[id] else { return }
            listener.known = max(known, listener.pending ?? known)
            if let pending = listener.pending, pending <= known { listener.pending = nil }
            state.listeners[id] = listener
        }
    }

    /// Every listener is due a heartbeat, unless a change is already waiting for it.
    func beat() {
        state.withLock { state in
            for (id, var listener) in state.listeners where listener.pending == nil {
                if let waiter = listener.waiter {
                    listener.waiter = nil
                    waiter.resume(returning: .heartbeat)
                } else {
                    listener.heartbeatDue = true
                }
                state.listeners[id] = listener
            }
        }
    }

    // MARK: Watching

    /// Watches, reads counters after each nudge and beats, until the last listener goes.
    private func run() async {
        let (nudgeStream, nudges) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.nudges = nudges }
        defer { nudges.finish() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [watcher] in
                while !Task.isCancelled {
                    do {
                        try await watcher.watch { [weak self] accounts in self?.nudge(accounts) }
                    } catch {
                        // The database is away: watch again in a moment, and read everything then.
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            }
            group.addTask { [heartbeat] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: heartbeat)
                    if !Task.isCancelled { self.beat() }
                }
            }
            group.addTask {
                for await _ in nudgeStream {
                    if Task.isCancelled { return }
                    await self.readNudged()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    func nudge(_ accounts: Set<AccountID>?) {
        let nudges = state.withLock { state in
            if let accounts {
                state.dirty?.formUnion(accounts)
            } else {
                state.dirty = nil
            }
            return state.nudges
        }
        nudges?.yield()
    }

    /// Reads the counters of the nudged accounts someone listens to, and announces those that moved.
    private func readNudged() async {
        let accounts: [AccountID] = state.withLock { state in
            let listened = Set(state.byAccount.keys)
            let wanted = state.dirty.map { $0.intersection(listened) } ?? listened
            state.dirty = []
            return Array(wanted)
        }
        guard !accounts.isEmpty else { return }
        do {
            for (account, cursor) in try await watcher.counters(of: accounts) {
                announce(account, cursor: cursor)
            }
        } catch {
            // Read again after a moment: a nudge is never dropped.
            nudge(Set(accounts))
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// One open event stream's listener; closing it (or dropping the stream's task) frees its place.
struct Subscription: Sendable {
    let announcer: ChangeAnnouncer
    let id: Int

    func next() async -> StreamEvent? { await announcer.next(id) }
    func close() { announcer.close(id) }
}
