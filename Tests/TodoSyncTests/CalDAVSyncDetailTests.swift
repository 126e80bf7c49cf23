import Foundation
import TestSupport
import Testing
import TodoCore
@testable import TodoSync

/// `todo sync` with todo-server's own CalDAV, beside a replica on its JSON
/// API: the same account's todos, whichever way they travel.
@Suite("todo sync with todo-server's CalDAV")
struct TodoServerCalDAVSyncTests {
    @Test func aCalDAVReplicaAndAJSONReplicaAgree() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-own-caldav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let token = try await addTodoServerAccount("alice", database: database)
        let server = try ServerProcess(["--port", "0", "--database", database])
        defer { kill(server.process.processIdentifier, SIGKILL) }
        let origin = "http://127.0.0.1:\(try await server.port())"
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "TODO_PASSWORD": token]
        func run(_ arguments: [String], _ replica: String) async throws -> (status: Int32, out: String, err: String) {
            let path = folder.appendingPathComponent(replica + ".sqlite").path
            return try await Radicale.offPool { try todo(arguments, database: path, environment: environment) }
        }
        func texts(_ replica: String) async throws -> [String] {
            let out = try await run(["export"], replica).out
            let todos = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
            return todos.map { "\($0["text"] ?? "") \($0["done"] as? Bool == true ? "done" : "open") \($0["priority"] as? String ?? "-")" }.sorted()
        }
        let calDAV = ["sync", "--server", "caldav+\(origin)/dav/alice/tasks/", "--user", "alice"]
        let json = ["sync", "--server", origin, "--token", token]
        #expect(try await run(["add", "through caldav", "--priority", "high"], "a").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await run(["add", "through json"], "b").status == 0)
        #expect(try await run(json, "b").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await texts("a") == ["through caldav open high", "through json open -"])
        #expect(try await texts("b") == ["through caldav open high", "through json open -"])
        // An edit on each side, of different fields of one todo.
        let listed = try await run(["list", "--query", "json", "--json"], "a").out
        let shared = try #require((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await run(["done", String(shared.prefix(8))], "a").status == 0)
        #expect(try await run(["edit", String(shared.prefix(8)), "--priority", "low"], "b").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await run(json, "b").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await texts("a") == ["through caldav open high", "through json done low"])
        #expect(try await texts("b") == ["through caldav open high", "through json done low"])
        // A subtask made through CalDAV keeps its parent on the JSON side; a blocker added there comes back.
        #expect(try await run(["add", "a subtask", "--parent", String(shared.prefix(8))], "a").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await run(json, "b").status == 0)
        func subtask(_ replica: String) async throws -> [String: Any] {
            let out = try await run(["list", "--query", "subtask", "--json"], replica).out
            return try #require((try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])?.first)
        }
        #expect(try await subtask("b")["parent"] as? String == shared)
        let other = try await run(["list", "--query", "caldav", "--json"], "b").out
        let blocker = try #require((try JSONSerialization.jsonObject(with: Data(other.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        let subtaskID = try #require(try await subtask("b")["id"] as? String)
        #expect(try await run(["edit", String(subtaskID.prefix(8)), "--blocked-by", String(blocker.prefix(8))], "b").status == 0)
        #expect(try await run(json, "b").status == 0)
        #expect(try await run(calDAV, "a").status == 0)
        #expect(try await subtask("a")["blockedBy"] as? [String] == [blocker])
        #expect(try await subtask("a")["parent"] as? String == shared)
    }
}

/// How a multistatus is read, as servers write them: hrefs as paths or as
/// whole URLs, names percent-encoded, the list itself among its members
/// (iCloud), removed members (404), an answer cut short (507).
struct MultistatusReadingTests {
    @Test func membersAreNamedWhateverTheHrefsLookLike() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:">
              <D:response><D:href>https://cloud.example.org/dav/alice/tasks/</D:href>
                <D:propstat><D:prop><D:getetag>"list"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
              <D:response><D:href>/dav/alice/tasks/buy%20milk%40home.ics</D:href>
                <D:propstat><D:prop><D:getetag>W/"1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
              <D:response><D:href>https://cloud.example.org/dav/alice/tasks/gone.ics</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response>
              <D:response><D:href>/dav/alice/tasks/</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>
              <D:sync-token>http://example.org/sync/7</D:sync-token>
            </D:multistatus>
            """
        let answer = try MultistatusAnswer(Array(body.utf8), base: "https://cloud.example.org/dav/alice/tasks/", request: "REPORT")
        #expect(answer.truncated)
        #expect(answer.syncToken == "http://example.org/sync/7")
        let members = answer.members.filter { !$0.isCollection }
        #expect(members.map(\.name) == ["buy%20milk@home.ics", "gone.ics"])
        #expect(members.map(\.status) == [200, 404])
        #expect(members.first?.etag == #"W/"1""#)
        // One name however the server encodes it; one that does not decode, as written.
        #expect(CalDAVCollection.canonical("buy%20milk%40home.ics") == "buy%20milk@home.ics")
        #expect(CalDAVCollection.canonical("caf%E9.ics") == "caf%E9.ics")
        // One version for an ETag however it is written; a weak one is never sent in If-Match.
        #expect(CalDAVItem.version(ofETag: #"W/"1""#) == CalDAVItem.version(ofETag: "1"))
        #expect(CalDAVItem.version(ofETag: #""1""#) != CalDAVItem.version(ofETag: #""2""#))
        #expect(CalDAVCollection.ifMatch(#"W/"1""#).isEmpty)
        #expect(CalDAVCollection.ifMatch(#""1""#) == ["If-Match": #""1""#])
    }
}

/// Deletes after an edit not yet confirmed, on a list with only a CTag
/// (every sync that finds a change reads the whole list): a delete made
/// elsewhere is followed, one made here is sent; neither is taken back.
struct CalDAVDeleteAfterEditTests {
    func replicas() async throws -> (FakeCalDAVServer, Replica, Replica, UUID) {
        let server = FakeCalDAVServer(changes: .ctagOnly)
        let a = try Replica(transport: server, server: FakeCalDAVServer.server)
        let b = try Replica(transport: server, server: FakeCalDAVServer.server)
        let id = UUID()
        try a.add("paint the fence", id: id)
        // Others, so that no sync empties the list (that asks for --force).
        try a.add("keep one")
        try a.add("keep two")
        try await a.sync()
        try await b.sync()
        // An edit from A, which no list has shown back to A yet.
        let todo = try #require(try a.todos().first { $0.id == id })
        try a.db.updateTodos([todo.editing(text: "paint the fence green", at: Date())])
        try await a.sync()
        return (server, a, b, id)
    }

    @Test func aDeleteElsewhereIsFollowed() async throws {
        let (server, a, b, id) = try await replicas()
        try await b.sync()
        try b.db.deleteTodos(ids: [id])
        try await b.sync()
        #expect(await server.names.count == 2)
        try await a.sync()
        #expect(try a.todos().map(\.text).sorted() == ["keep one", "keep two"], "deleted on B, gone here, not sent again")
        #expect(await server.names.count == 2)
    }

    @Test func aDeleteHereIsSent() async throws {
        let (server, a, b, id) = try await replicas()
        try a.db.deleteTodos(ids: [id])
        try await a.sync()
        #expect(await server.names.count == 2, "deleted here, deleted there")
        try await a.sync()
        #expect(try a.todos().map(\.text).sorted() == ["keep one", "keep two"])
        try await b.sync()
        #expect(try b.todos().map(\.text).sorted() == ["keep one", "keep two"])
    }
}

/// What a sync asks of a CalDAV list, request by request.
struct CalDAVRequestTests {
    /// The sync after a push: the report names our own writes back, at the
    /// ETags their PUTs returned; they are not read again. One request.
    @Test func ownWritesNamedBackAreNotReadAgain() async throws {
        let server = FakeCalDAVServer()
        let a = try Replica(transport: server, server: FakeCalDAVServer.server)
        for number in 0..<5 { try a.add("todo \(number)") }
        try await a.sync()
        let before = await server.log.count
        let summary = try await a.sync()
        #expect(Array(await server.log.dropFirst(before)) == ["REPORT /dav/alice/tasks/"])
        #expect(summary.pulled == 0 && summary.pushed == 0)
        // Another client's change is read, and only it.
        let name = try #require(await server.names.first)
        let text = try #require(await server.text(of: name)).replacingOccurrences(of: "SUMMARY:todo", with: "SUMMARY:changed todo")
        await server.put(name, text)
        let again = await server.log.count
        try await a.sync()
        #expect(Array(await server.log.dropFirst(again)) == ["REPORT /dav/alice/tasks/", "REPORT /dav/alice/tasks/"])
        #expect(try a.todos().filter { $0.text.hasPrefix("changed") }.count == 1)
    }
}
