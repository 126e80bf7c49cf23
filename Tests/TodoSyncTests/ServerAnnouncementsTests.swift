import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// Reading todo-server's event stream: the Server-Sent Events parser on
/// exact bytes, and `ServerAnnouncements` against a real todo-server, a
/// json-server-style server (no stream: polled) and nothing listening.
@Suite(.threadsOfTheirOwn)
struct ServerAnnouncementsTests {
    @Test func eventsAreReadWhateverTheChunksAndLineEnds() {
        let text = "retry: 1000\r\n\r\n: heartbeat\n\nid: 7\nevent: change\ndata: {\"cursor\":\"7\"}\n\nid: 8\revent: resync\rdata: a\rdata: b\r\r"
        let whole = { () -> [ServerSentEvents.Event] in
            var parser = ServerSentEvents()
            return parser.feed(Array(text.utf8))
        }()
        #expect(whole == [
            ServerSentEvents.Event(type: "change", data: #"{"cursor":"7"}"#, id: "7"),
            ServerSentEvents.Event(type: "resync", data: "a\nb", id: "8"),
        ])
        // Any cut, a byte at a time included: the same events.
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            var parser = ServerSentEvents()
            var events: [ServerSentEvents.Event] = []
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let size = min(bytes.count, 1 + random.next(8))
                events += parser.feed(bytes.prefix(size))
                bytes = bytes.dropFirst(size)
            }
            #expect(events == whole)
        }
    }

    @Test func aLineLongerThanTheLimitIsDroppedNotHeld() {
        var parser = ServerSentEvents()
        let long = "data: " + String(repeating: "x", count: ServerSentEvents.maxLineLength * 2) + "\n"
        #expect(parser.feed(Array((long + "event: change\ndata: ok\n\n").utf8)) == [ServerSentEvents.Event(type: "change", data: "ok")])
    }

    @Test func aRealTodoServerAnnouncesEachChange() async throws {
        try await withLiveTodoServer { url in
            let announcements = ServerAnnouncements(configuration: SyncConfiguration(server: url), cursor: nil)
            var iterator = announcements.announcements().makeAsyncIterator()
            #expect(try await iterator.next() == .listening)
            // Told where the feed stands, then of each change.
            #expect(try await iterator.next() == .changed(cursor: "0"))
            // Off the shared threads: the stream's reader must run while curl waits for its answer.
            _ = try await Radicale.offPool { try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-d", #"{"title":"a"}"#, url + "/todos"]) }
            #expect(try await iterator.next() == .changed(cursor: "1"))

            // A new connection resumes from the last event: nothing to say until the next change.
            var again = announcements.announcements().makeAsyncIterator()
            #expect(try await again.next() == .listening)
            _ = try await Radicale.offPool { try runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-d", #"{"title":"b"}"#, url + "/todos"]) }
            #expect(try await again.next() == .changed(cursor: "2"))
        }
    }

    @Test func aJSONServerHasNoStreamAndNothingListeningIsAFailure() async throws {
        let server = try ServerProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", PagingEndToEndTests.script.path, "--port", "0"])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())"
        var iterator = ServerAnnouncements(configuration: SyncConfiguration(server: url), cursor: nil).announcements().makeAsyncIterator()
        await #expect(throws: ChangeAnnouncementsUnavailable.self) { _ = try await iterator.next() }

        var refused = ServerAnnouncements(configuration: SyncConfiguration(server: "http://127.0.0.1:9"), cursor: nil).announcements().makeAsyncIterator()
        do {
            _ = try await refused.next()
            Issue.record("a stream from nothing")
        } catch let error as TransportError {
            #expect(error.kind == .connectionRefused)
        }
    }
}
