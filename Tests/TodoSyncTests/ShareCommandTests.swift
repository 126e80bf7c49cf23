import Foundation
import TestSupport
import Testing

/// `todo share`, `shares`, `unshare`, `join` and `leave` against a real
/// todo-server process, as a family uses them: each person a database (and
/// remembered token) of their own.
@Suite(.threadsOfTheirOwn)
struct ShareCommandTests {
    @Test func aFamilySharesItsShoppingList() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let serverDatabase = folder.appendingPathComponent("server.sqlite").path
        var tokens: [String: String] = [:]
        for name in ["mum", "dad", "gran"] { tokens[name] = try await addTodoServerAccount(name, database: serverDatabase) }
        let server = try ServerProcess(["--port", "0", "--database", serverDatabase])
        defer { kill(server.process.processIdentifier, SIGTERM) }
        let url = "http://127.0.0.1:\(try await server.port())"
        // Each in a folder of their own: the token a sync remembers sits beside the database.
        func run(_ person: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let home = folder.appendingPathComponent(person)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            return try todo(arguments, database: home.appendingPathComponent("todo.sqlite").path)
        }
        func refused(_ person: String, _ arguments: [String], says: String) throws {
            let result = try run(person, arguments)
            #expect(result.status != 0, "\(arguments): \(result.out)")
            #expect(result.err.contains(says), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        }
        for person in ["mum", "dad", "gran"] {
            #expect(try run(person, ["add", "\(person)'s first", "--project", person == "dad" ? "shopping" : "home"]).status == 0)
            #expect(try run(person, ["sync", "--server", url, "--token", tokens[person]!]).status == 0)
        }

        let shared = try run("mum", ["share", "shopping", "--with", "dad"])
        #expect(shared.status == 0, "\(shared.err)")
        #expect(shared.out.contains("dad joins it with todo join shopping --from mum"), "\(shared.out)")
        #expect(try run("mum", ["share", "shopping", "--with", "gran", "--read-only"]).out.contains("read-only"))
        let invited = try run("dad", ["shares"]).out
        #expect(invited.contains("shopping from mum (editor), invited: todo join shopping --from mum"), "\(invited)")
        // Dad has a shopping list of his own: mum's joins under another name.
        try refused("dad", ["join", "shopping", "--from", "mum"], says: "--as mum-shopping")
        #expect(try run("dad", ["join", "shopping", "--from", "mum", "--as", "family"]).out.contains("Joined mum's shopping as family"))
        #expect(try run("gran", ["join", "shopping", "--from", "mum"]).status == 0)
        let mine = try run("mum", ["shares"]).out
        #expect(mine.contains("Shared by you (mum):") && mine.contains("shopping: dad (editor, joined), gran (viewer, joined)"), "\(mine)")
        #expect(try run("dad", ["shares"]).out.contains("shopping from mum (editor), joined as family"))

        // Mistakes: one line each, and nothing changed.
        try refused("mum", ["share", "shopping", "--with", "dad"], says: "already shared with dad")
        try refused("mum", ["share", "shopping", "--with", "nobody"], says: "No account is named nobody")
        try refused("mum", ["share", "home.garden", "--with", "dad"], says: "is not a list")
        try refused("dad", ["share", "family", "--with", "gran"], says: "mum's list, shared with you")
        try refused("gran", ["leave", "nothing"], says: "joined no list named nothing")
        try refused("mum", ["shares", "--token", "todo_wrong"], says: "refused the token")
        try refused("mum", ["shares", "--server", "http://127.0.0.1:9"], says: "connection refused")
        #expect(try run("mum", ["shares"]).out == mine)

        #expect(try run("dad", ["leave", "family"]).out.contains("Left family"))
        #expect(try run("mum", ["unshare", "shopping", "--with", "gran"]).status == 0)
        #expect(try run("mum", ["shares"]).out.contains("You share no list"))
        #expect(try run("gran", ["shares"]).out.contains("No list is shared with you"))
    }
}
