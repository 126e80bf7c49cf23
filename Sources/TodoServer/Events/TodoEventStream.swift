import Foundation
import Hummingbird
import ServiceLifecycle

/// `GET /todos/events`: a Server-Sent Events stream telling one account's
/// live clients that its todos changed, so they sync at once instead of polling.
///
///     retry: 1000
///
///     id: 42
///     event: change
///     data: {"cursor":"42"}
///
/// An event carries the feed cursor (as `/todos?_since=` takes it) whenever
/// the account's todos change, here or on another instance; several changes
/// a client has not read yet arrive as one event with the latest cursor. On
/// connecting, the client is told where the feed stands, unless its
/// `Last-Event-ID` says it knows; a `Last-Event-ID` the feed can no longer
/// follow (tombstones purged, data replaced) gets `event: resync` instead.
/// A comment line every `heartbeat` keeps proxies from closing a quiet
/// stream. Streams end when the server shuts down.
///
/// A shared list's stream (`/lists/OWNER/LIST/todos/events`) listens to
/// its owner's account and passes on only the changes of the list, each
/// after its `gate` has found that the requester may still see the list;
/// the stream ends the moment they may not.
struct TodoEventStream<Repository: TodoRepository>: Sendable {
    let todos: Repository
    let announcer: ChangeAnnouncer
    let account: AccountID
    /// Asked before each change is sent (with the cursor it last looked
    /// from, -1 at first) and at each heartbeat (`cursor` nil): whether to
    /// send it; nil ends the stream. None: everything is sent.
    var gate: (@Sendable (_ since: Int, _ cursor: Int?) async throws -> Bool?)?

    init(
        todos: Repository, announcer: ChangeAnnouncer, account: AccountID,
        gate: (@Sendable (_ since: Int, _ cursor: Int?) async throws -> Bool?)? = nil
    ) {
        self.todos = todos
        self.announcer = announcer
        self.account = account
        self.gate = gate
    }

    /// Whether a request asks for the stream rather than the todo whose id is `events`.
    static func isWanted(_ request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains("text/event-stream") }
    }

    func response(_ request: Request) async throws -> Response {
        let lastEventID = try Self.lastEventID(request)
        let subscription = try announcer.listen(account: account, known: -1)
        let first: String
        do {
            first = try await opening(after: lastEventID, subscription: subscription)
        } catch {
            subscription.close()
            throw error
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8",
            .cacheControl: "no-store",
            .accelBuffering: "no",
        ]
        // Closed when the body has been written, or when the response is
        // dropped unwritten (the client went before its head was sent).
        let held = HeldSubscription(subscription)
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { held.subscription.close() }
            do {
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n" + first))
                try await withGracefulShutdownHandler {
                    var lookedFrom = -1
                    while let event = await subscription.next() {
                        if let gate {
                            let cursor: Int? = if case .changed(let cursor) = event { cursor } else { nil }
                            guard let send = try await gate(lookedFrom, cursor) else { break }
                            if let cursor { lookedFrom = cursor }
                            guard send else { continue }
                        }
                        try await writer.write(ByteBuffer(string: Self.text(event)))
                    }
                } onGracefulShutdown: {
                    subscription.close()
                }
                try await writer.finish(nil)
            } catch {
                // The client went away: its listener goes with it.
            }
        })
    }

    /// What the stream says first: a resync, or nothing (the announcer
    /// then sends where the feed stands, unless the client knows it). The
    /// listener was opened knowing nothing, so a change made meanwhile is
    /// pending: `settle` keeps it when it is newer than what the client is told.
    private func opening(after lastEventID: Int?, subscription: Subscription) async throws -> String {
        let counter = try await todos.changeCounter()
        if let lastEventID, lastEventID != counter, try await !isFollowable(lastEventID, counter: counter) {
            announcer.settle(subscription.id, known: counter)
            return "id: \(counter)\nevent: resync\ndata: {\"cursor\":\"\(counter)\"}\n\n"
        }
        announcer.settle(subscription.id, known: lastEventID ?? -1)
        announcer.announce(account, cursor: counter, only: subscription.id)
        return ""
    }

    /// Whether the feed can go on from `cursor`: not ahead of it, and its deletions still kept.
    private func isFollowable(_ cursor: Int, counter: Int) async throws -> Bool {
        guard cursor < counter else { return false }
        do {
            _ = try await todos.changes(since: cursor, limit: 1)
            return true
        } catch let error as ServerError where error.status == .gone {
            return false
        }
    }

    static func text(_ event: StreamEvent) -> String {
        switch event {
        case .changed(let cursor): "id: \(cursor)\nevent: change\ndata: {\"cursor\":\"\(cursor)\"}\n\n"
        case .heartbeat: ": heartbeat\n\n"
        }
    }

    /// `Last-Event-ID`: a cursor this server gave, or absent.
    static func lastEventID(_ request: Request) throws -> Int? {
        guard let value = request.headers[.lastEventID]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        guard let cursor = Int(value), cursor >= 0 else {
            throw ServerError.badRequest("Last-Event-ID must be the id of an event this stream sent (a whole number), not \(value.debugDescription).")
        }
        return cursor
    }
}

/// Closes its subscription when the last reference to it goes.
private final class HeldSubscription: Sendable {
    let subscription: Subscription

    init(_ subscription: Subscription) {
        self.subscription = subscription
    }

    deinit {
        subscription.close()
    }
}
