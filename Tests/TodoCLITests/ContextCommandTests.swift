import Foundation
import Testing
import TestSupport

/// `todo context`: saved filters that list, next and add follow while on.
@Suite("todo context", .threadsOfTheirOwn)
struct ContextCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    func texts(_ arguments: [String] = []) throws -> [String] {
        try todo.listJSON(arguments).compactMap { $0["text"] as? String }
    }

    @Test func aContextNarrowsListAndNextAndFillsInAdd() throws {
        _ = try todo.ok(["add", "water plants", "--project", "home"])
        _ = try todo.ok(["add", "call client", "--project", "work", "--tag", "phone"])
        _ = try todo.ok(["add", "plan offsite", "--project", "work.team", "--tag", "someday"])
        #expect(try todo.ok(["context", "work", "--project", "work", "--not-tag", "someday"]) == "Context work is on: --project work --not-tag someday\n")
        #expect(try texts() == ["call client"])
        let added = try JSONSerialization.jsonObject(with: Data(try todo.ok(["add", "book flights", "--json"]).utf8)) as? [String: Any]
        #expect(added?["project"] as? String == "work")
        #expect(try texts() == ["book flights", "call client"])
        let next = try JSONSerialization.jsonObject(with: Data(try todo.ok(["next", "--json"]).utf8)) as? [[String: Any]]
        #expect(next?.compactMap { $0["text"] as? String }.sorted() == ["book flights", "call client"])
        // An explicit --project wins over the context's.
        #expect(try texts(["--project", "home"]) == ["water plants"])

        _ = try todo.ok(["context", "errands", "--tag", "errands"])
        #expect(try todo.ok(["context"]) == "* errands  --tag errands\n  work  --project work --not-tag someday\n")
        _ = try todo.ok(["context", "work"])
        #expect(try todo.ok(["context"]).hasPrefix("  errands"))
        #expect(try todo.ok(["context", "none"]).hasPrefix("No context is on"))
        #expect(try texts().count == 4)
        #expect(try todo.ok(["context", "--delete", "errands"]) == "Deleted context errands\n")
        #expect(try todo.ok(["context"]) == "  work  --project work --not-tag someday\n")
    }

    @Test(arguments: [
        (["context", "nope"], "there is no context 'nope'"),
        (["context", "a b", "--tag", "x"], "'a b' is no context name"),
        (["context", "--tag", "x"], "filters need a name"),
        (["context", "none", "--tag", "x"], "takes no filters"),
        (["context", "x", "--tag", "a", "--not-tag", "a"], "--tag a and --not-tag a leave nothing"),
        (["context", "x", "--project", "a..b"], "'a..b' is not a project"),
        (["context", "x", "--project", "none"], "a context keeps one project"),
        (["context", "--delete", "gone"], "there is no context 'gone'"),
    ])
    func mistakesAreOneLine(arguments: [String], message: String) throws {
        let result = try todo.run(arguments)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Created a new todo database") }
        #expect(lines.count == 1 && result.stderr.contains(message), "\(result.stderr)")
        #expect(try todo.ok(["context"]).hasPrefix("No context is saved"))
    }
}
