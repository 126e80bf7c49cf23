import Foundation
import Testing
import TestSupport

/// `todo mcp` for real requests (issue 45, item 9): changes by filter with
/// the command line's rule of asking first, answers that stay short, what
/// to do next, and a list by project.
@Suite("todo mcp: changes by filter, next_todos", .threadsOfTheirOwn)
struct MCPWhereTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    func content(_ result: [String: Any]) -> [String: Any] {
        result["structuredContent"] as? [String: Any] ?? [:]
    }

    func text(_ result: [String: Any]) -> String {
        ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
    }

    /// Over three todos by `where`: refused, then a dry run, then made;
    /// three or fewer need no dry run.
    @Test func aChangeByWhereOfManyNeedsItsDryRunFirst() throws {
        for index in 1...5 { _ = try todo.add(["errand \(index)", "--tag", "errands"]) }
        _ = try todo.add(["read", "--tag", "home"])
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let errands: [String: Any] = ["tags": ["errands"]]
        let refused = try mcp.call(1, "complete_todo", ["where": errands])
        #expect(refused["isError"] as? Bool == true)
        #expect(text(refused).hasPrefix("'where' selects 5 todos, more than 3: call complete_todo with this where and dry_run: true first"), "\(text(refused))")
        #expect(try todo.listJSON().count == 6)
        let dry = content(try mcp.call(2, "complete_todo", ["where": errands, "dry_run": true]))
        #expect(dry["dry_run"] as? Bool == true && dry["count"] as? Int == 5, "\(dry)")
        #expect(try todo.listJSON().count == 6)
        let done = content(try mcp.call(3, "complete_todo", ["where": errands]))
        #expect(done["dry_run"] as? Bool == false && done["count"] as? Int == 5, "\(done)")
        #expect(try todo.listJSON().compactMap { $0["text"] as? String } == ["read"])
        // Right after, the dry run is spent: the next change by where asks again.
        let reopen = try mcp.call(4, "reopen_todo", ["where": errands])
        #expect(text(reopen).contains("call reopen_todo with this where and dry_run: true first"), "\(text(reopen))")
        // Three or fewer: at once. Both ids and where: refused.
        _ = try mcp.call(5, "edit_todo", ["where": ["tags": ["home"]], "priority": "high"])
        #expect(try todo.listJSON().first?["priority"] as? String == "high")
        let both = try mcp.call(6, "delete_todo", ["ids": ["abcd"], "where": errands])
        #expect(text(both) == "delete_todo takes 'ids' or 'where', not both")
        let nothing = try mcp.call(7, "delete_todo", ["where": ["query": "nothing like this"]])
        #expect(text(nothing).hasPrefix("'where' selects no todo"))
        let unknown = try mcp.call(8, "delete_todo", ["where": ["colour": "red"]])
        #expect(text(unknown).hasPrefix("delete_todo's 'where' takes no argument 'colour'"), "\(text(unknown))")
    }

    /// The dry run's todos are the ones changed: one added since is asked about again.
    @Test func aSelectionChangedSinceTheDryRunIsAskedAgain() throws {
        for index in 1...4 { _ = try todo.add(["errand \(index)", "--tag", "errands"]) }
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let errands: [String: Any] = ["tags": ["errands"]]
        _ = try mcp.call(1, "delete_todo", ["where": errands, "dry_run": true])
        _ = try todo.add(["errand 5", "--tag", "errands"])
        let refused = try mcp.call(2, "delete_todo", ["where": errands])
        #expect(text(refused) == "the todos 'where' selects changed since the dry run: call delete_todo with dry_run: true again")
        #expect(try todo.listJSON().count == 5)
    }

    /// Over twenty changes: counts and the first IDs, unless `detail`.
    @Test func aLargeChangeAnswersASummaryUnlessDetailIsAsked() throws {
        let lines = (1...25).map { #"{"id":"\#(String(format: "%08d", $0))-0000-4000-8000-000000000000","text":"t\#($0)","createdAt":"2026-01-01T00:00:00.000Z"}"# }
        _ = try todo.ok(["import", "-"], stdin: "[" + lines.joined(separator: ",") + "]")
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let all: [String: Any] = ["query": "t"]
        let dry = content(try mcp.call(1, "complete_todo", ["where": all, "dry_run": true]))
        #expect(dry["count"] as? Int == 25 && (dry["changes"] as? [Any])?.isEmpty == true, "\(dry)")
        #expect((dry["first_ids"] as? [String])?.count == 5)
        #expect((dry["summary"] as? String)?.hasSuffix("(detail: true lists each todo before and after)") == true)
        let detailed = content(try mcp.call(2, "complete_todo", ["where": all, "dry_run": true, "detail": true]))
        #expect((detailed["changes"] as? [Any])?.count == 25)
        let undo = content(try mcp.call(3, "undo", ["dry_run": true]))
        #expect(undo["count"] as? Int == 25 && (undo["changes"] as? [Any])?.isEmpty == true, "\(undo)")
    }

    /// next_todos answers what todo next answers, urgency and all.
    @Test func nextTodosAnswersWhatTodoNextAnswers() throws {
        _ = try todo.add(["someday maybe"])
        _ = try todo.add(["pay rent", "--due", "yesterday", "--priority", "high", "--project", "home"])
        _ = try todo.add(["call the bank", "--due", "tomorrow", "--project", "work"])
        let expected = try JSONSerialization.jsonObject(with: Data(try todo.ok(["next", "--json"]).utf8)) as? [[String: Any]] ?? []
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let next = try #require(content(try mcp.call(1, "next_todos", [:]))["todos"] as? [[String: Any]])
        #expect(next.compactMap { $0["id"] as? String } == expected.compactMap { $0["id"] as? String })
        // The same terms a moment later: the age term has grown by a hair.
        let urgencies = zip(next.compactMap { $0["urgency"] as? Double }, expected.compactMap { $0["urgency"] as? Double })
        #expect(urgencies.allSatisfy { abs($0 - $1) < 0.01 } && urgencies.count { _ in true } == 3)
        #expect(next.first?["text"] as? String == "pay rent")
        let work = try #require(content(try mcp.call(2, "next_todos", ["project": "work", "limit": 5]))["todos"] as? [[String: Any]])
        #expect(work.compactMap { $0["text"] as? String } == ["call the bank"])
        // list_todos takes the project too.
        let listed = try #require(content(try mcp.call(3, "list_todos", ["project": "home"]))["todos"] as? [[String: Any]])
        #expect(listed.compactMap { $0["text"] as? String } == ["pay rent"])
    }
}
