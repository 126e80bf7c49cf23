import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TodoCore

/// todo-server's change announcements (`GET /todos/events`, Server-Sent
/// Events), read as they come, for a live `todo ui`. Each connection sends
/// `Last-Event-ID` (the last event's id, at first the feed cursor the last
/// sync reached), so the server says at once whether anything changed
/// meanwhile. A server answering anything but an event stream (a
/// json-server-style one) announces nothing: it is polled instead.
public final class ServerAnnouncements: ChangeAnnouncing {
    let configuration: SyncConfiguration
    private let lastEventID: Mutex<String?>

    /// The client streams share: a read times out only if not even a
    /// heartbeat (every 30 s) came for 75 s, which means the connection is dead.
    static let client = AsyncHTTPTransport.makeClient(readTimeout: .seconds(75))

    public init(configuration: SyncConfiguration, cursor: String?) {
        self.configuration = configuration
        self.lastEventID = Mutex(cursor)
    }

    public func announcements() -> AsyncThrowingStream<ChangeAnnouncement, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ChangeAnnouncement.self)
        let task = Task {
            do {
                try await self.read(into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func read(into continuation: AsyncThrowingStream<ChangeAnnouncement, any Error>.Continuation) async throws {
        var request = HTTPClientRequest(url: configuration.server + configuration.collectionPath + "/events")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let token = configuration.token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let id = lastEventID.withLock({ $0 }) { request.headers.add(name: "Last-Event-ID", value: id) }
        let response: HTTPClientResponse
        do {
            response = try await Self.client.execute(request, deadline: .distantFuture)
        } catch {
            throw AsyncHTTPTransport.classify(error)
        }
        let isStream = response.headers.first(name: "content-type")?.lowercased().hasPrefix("text/event-stream") ?? false
        if response.status == .badRequest, request.headers.contains(name: "Last-Event-ID") {
            // The server does not take this id (its data replaced by another's?): ask afresh.
            lastEventID.withLock { $0 = nil }
            throw TransportError(.other, "GET /todos/events refused the last event's id")
        }
        guard response.status == .ok, isStream else {
            // Any other answer but a refusal or a failure: this server has no stream.
            if response.status.code < 300 || [400, 404, 405, 406, 501].contains(response.status.code) {
                throw ChangeAnnouncementsUnavailable()
            }
            throw TransportError(.other, "GET /todos/events answered \(response.status.code)")
        }
        continuation.yield(.listening)
        var events = ServerSentEvents()
        do {
            for try await chunk in response.body {
                for event in events.feed(chunk.readableBytesView) {
                    if let id = event.id { lastEventID.withLock { $0 = id } }
                    switch event.type {
                    case "change": continuation.yield(.changed(cursor: event.id ?? ""))
                    case "resync": continuation.yield(.resync)
                    default: break
                    }
                }
            }
        } catch {
            throw AsyncHTTPTransport.classify(error)
        }
    }
}
