import Foundation
import Testing
import TestSupport

/// `todo mcp` spoken to over a pipe with exact bytes: what a client that is
/// wrong, hostile or gone does, and the answers the protocol prescribes.
@Suite("todo mcp: the protocol over a pipe", .threadsOfTheirOwn)
struct MCPProtocolTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    private func error(of answer: [String: Any]) -> (code: Int?, message: String) {
        let error = answer["error"] as? [String: Any]
        return (error?["code"] as? Int, error?["message"] as? String ?? "")
    }

    @Test func initializeNamesTheRevisionAndTheTools() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        let answer = try mcp.initialize()
        let result = try #require(answer["result"] as? [String: Any])
        #expect(result["protocolVersion"] as? String == "2025-11-25")
        #expect((result["capabilities"] as? [String: Any])?["tools"] != nil)
        let tools = try #require((try mcp.request(1, "tools/list")["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        #expect(tools.compactMap { $0["name"] as? String } == [
            "list_todos", "next_todos", "get_todo", "add_todo", "edit_todo", "complete_todo", "reopen_todo", "delete_todo", "undo",
        ])
        for tool in tools {
            #expect(tool["inputSchema"] != nil && tool["outputSchema"] != nil && tool["annotations"] != nil, "\(tool)")
        }
    }

    @Test func whatIsNotJSONGetsAParseErrorWithANullIDAndTheSessionGoesOn() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        try mcp.send(#"{"jsonrpc": "2.0", "id": 7, "method": "tools/list""#)
        let answer = try mcp.next()
        #expect(error(of: answer).code == -32700)
        #expect(answer["id"] is NSNull)
        #expect(try mcp.request(8, "ping")["result"] != nil)
    }

    @Test func aMessageThatIsNotARequestIsAnInvalidRequest() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        try mcp.send(#"{"jsonrpc": "2.0", "id": 3}"#)
        var answer = try mcp.next()
        #expect(error(of: answer).code == -32600)
        #expect(answer["id"] as? Int == 3)
        try mcp.send(#"{"jsonrpc": "1.0", "id": 4, "method": "ping"}"#)
        answer = try mcp.next()
        #expect(error(of: answer).code == -32600)
        try mcp.send("42")
        #expect(error(of: try mcp.next()).code == -32600)
    }

    @Test func anUnknownMethodAndAnUnknownToolAreProtocolErrors() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        #expect(error(of: try mcp.request(1, "todos/everything")).code == -32601)
        let unknown = try mcp.request(2, "tools/call", ["name": "drop_database", "arguments": [:] as [String: Any]])
        #expect(error(of: unknown).code == -32602)
        #expect(error(of: unknown).message.contains("drop_database"))
    }

    @Test func wrongArgumentTypesAreToolErrorsThatWriteNothing() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let cases: [(String, [String: Any], String)] = [
            ("add_todo", ["text": 5], "'text' must be a string, got the number 5"),
            ("add_todo", ["text": "milk", "tags": "x" as Any, "dry_run": "yes"], "'dry_run' must be true or false, got a string"),
            ("add_todo", ["text": "milk", "priority": "urgent"], "'priority' must be high, medium, low or null, got 'urgent'"),
            ("list_todos", ["limit": 0], "'limit' must be from 1 to 500, got 0"),
            ("list_todos", ["limit": 2.5], "'limit' must be a whole number from 1 to 500, got the number 2.5"),
            ("list_todos", ["tags": [1, 2]], "'tags' must be an array of strings, got an array"),
            ("list_todos", ["status": "open"], "'status' must be one of pending, done, all, got 'open'"),
            ("list_todos", ["cursor": "bm9wZQ=="], "'cursor' is not a cursor list_todos gave: call list_todos without it for the first page"),
            ("complete_todo", ["ids": [] as [String]], "complete_todo needs 'ids': the IDs of the todos, full or a unique prefix"),
            ("get_todo", [:], "get_todo needs 'id', a string"),
            ("add_todo", ["text": "milk", "due": "someday soon"], "'due': "),
            ("add_todo", ["text": "milk", "repeat": "sometimes"], "'sometimes' is not a repeat"),
        ]
        for (index, (tool, arguments, message)) in cases.enumerated() {
            let result = try mcp.call(10 + index, tool, arguments)
            #expect(result["isError"] as? Bool == true, "\(tool) \(arguments)")
            let text = ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            #expect(message.hasSuffix(": ") || message.hasPrefix("'sometimes'") ? text.hasPrefix(message) : text == message, "\(tool) \(arguments): \(text)")
        }
        #expect(try todo.listJSON(["--all"]).isEmpty)
    }

    /// A repeat in words through MCP: read as the command line reads it,
    /// completed into its next occurrence, its count used up at the last.
    @Test func aRepeatInWordsRepeatsAndEnds() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let added = try mcp.call(1, "add_todo", ["text": "pay rent", "due": "2030-11-29", "repeat": "monthly on the last friday, 2 times"])
        #expect(added["isError"] as? Bool != true, "\(added)")
        let first = try #require(try todo.listJSON([]).first)
        #expect(first["repeat"] as? String == "FREQ=MONTHLY;COUNT=2;BYDAY=-1FR")
        _ = try mcp.call(2, "complete_todo", ["ids": [first["id"] as Any]])
        let second = try #require(try todo.listJSON([]).first)
        #expect(second["due"] as? String == "2030-12-27" && second["repeat"] as? String == "FREQ=MONTHLY;COUNT=1;BYDAY=-1FR")
        _ = try mcp.call(3, "complete_todo", ["ids": [second["id"] as Any]])
        #expect(try todo.listJSON([]).isEmpty, "the series ended with its count")
    }

    /// A rule kept from a server (imported here as a server sent it):
    /// completing it says its app makes the next; typed, it is refused.
    @Test func aKeptRuleIsCompletedWithoutANextAndCannotBeTyped() throws {
        let kept = #"[{"id":"0b1c2d3e-0000-4000-8000-000000000001","text":"check the boiler","done":false,"due":"2030-12-03","repeat":"FREQ=DAILY;BYHOUR=9,17","tags":[],"createdAt":"2030-11-01T08:00:00.000Z"}]"#
        _ = try todo.ok(["import", "-"], stdin: kept)
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        func text(_ result: [String: Any]) -> String {
            ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        }
        let done = try mcp.call(1, "complete_todo", ["ids": ["0b1c2d3e"]])
        #expect(done["isError"] as? Bool != true && text(done).contains("the app that wrote the rule makes the next"), "\(text(done))")
        #expect(try todo.listJSON([]).isEmpty, "no next occurrence made here")
        let typed = try mcp.call(2, "add_todo", ["text": "tick", "due": "2030-12-03", "repeat": "FREQ=HOURLY"])
        #expect(typed["isError"] as? Bool == true && text(typed).contains("is a rule todo does not follow"), "\(text(typed))")
    }

    /// The core's errors in MCP's words: what to call next, never a shell command.
    @Test func refusalsNameToolsNotCommands() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        func text(_ result: [String: Any]) -> String {
            ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        }
        let unknown = try mcp.call(1, "complete_todo", ["ids": ["ffffffff"]])
        #expect(unknown["isError"] as? Bool == true)
        #expect(text(unknown) == "no todo has an ID starting with 'ffffffff': list_todos (with status: all) shows every todo's ID")
        let noDue = try mcp.call(2, "add_todo", ["text": "water the plants", "repeat": "weekly"])
        #expect(text(noDue) == "a repeating todo needs a due date: give due as well")
        let parent = try #require(((try mcp.call(3, "add_todo", ["text": "paint the room"])["structuredContent"] as? [String: Any])?["changes"] as? [[String: Any]])?.first?["after"] as? [String: Any])["id"] as? String
        _ = try mcp.call(4, "add_todo", ["text": "buy paint", "parent": parent as Any])
        let refused = try mcp.call(5, "complete_todo", ["ids": [parent as Any]])
        #expect(text(refused).hasSuffix("has 1 open subtask: pass with_subtasks: true to complete it too, or complete it first"), "\(text(refused))")
        for answer in [unknown, noDue, refused] {
            #expect(!["todo list", "todo add", "todo edit", "--"].contains(where: text(answer).contains), "\(text(answer))")
        }
    }

    /// null clears a field, as `none` does on the command line (and `none` here too).
    @Test func nullOrNoneClearsAFieldAndAFieldLeftOutStays() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let added = try mcp.call(1, "add_todo", ["text": "milk", "due": "2026-12-24", "priority": "high", "project": "home"])
        let id = try #require(((added["structuredContent"] as? [String: Any])?["changes"] as? [[String: Any]])?.first?["after"] as? [String: Any])["id"] as? String
        _ = try mcp.call(2, "edit_todo", ["id": id as Any, "due": NSNull(), "priority": "none"])
        let todo = try #require(try self.todo.listJSON(["--all"]).first)
        #expect(todo["due"] is NSNull && todo["priority"] is NSNull)
        #expect(todo["project"] as? String == "home")
    }

    @Test func anIDThatIsNeitherAStringNorANumberIsAnInvalidRequest() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        for id in ["null", "true", "1.5", "{}"] {
            try mcp.send(#"{"jsonrpc": "2.0", "id": \#(id), "method": "ping"}"#)
            let answer = try mcp.next()
            #expect(error(of: answer).code == -32600, "id \(id)")
            #expect(answer["id"] is NSNull)
        }
        #expect(try mcp.request(9, "ping")["result"] != nil)
    }

    @Test func aLastLineWithNoNewlineIsAnswered() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        try mcp.sendWithoutNewline(#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#)
        try mcp.closeInput()
        #expect(try mcp.next()["id"] as? Int == 1)
        #expect(try mcp.exitStatus() == 0)
    }

    @Test func theNextPageStartsAfterTheLastTodoListedEvenWhenTodosAboveItChange() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        for number in 1...6 {
            _ = try mcp.call(number, "add_todo", ["text": "todo \(number)"])
        }
        func page(_ id: Int, _ cursor: String?) throws -> (texts: [String], ids: [String], cursor: String?) {
            var arguments: [String: Any] = ["limit": 2]
            if let cursor { arguments["cursor"] = cursor }
            let content = try #require(try mcp.call(id, "list_todos", arguments)["structuredContent"] as? [String: Any])
            let todos = content["todos"] as? [[String: Any]] ?? []
            return (todos.compactMap { $0["text"] as? String }, todos.compactMap { $0["id"] as? String }, content["next_cursor"] as? String)
        }
        let first = try page(10, nil)
        #expect(first.texts == ["todo 6", "todo 5"])
        // The assistant completes what the first page showed, and someone adds a todo.
        _ = try mcp.call(11, "complete_todo", ["ids": first.ids])
        _ = try mcp.call(12, "add_todo", ["text": "todo 7"])
        let second = try page(13, first.cursor)
        #expect(second.texts == ["todo 4", "todo 3"])
        let third = try page(14, second.cursor)
        #expect(third.texts == ["todo 2", "todo 1"])
        #expect(third.cursor == nil)
        // A cursor whose last todo is gone resumes after the place it held.
        _ = try mcp.call(15, "delete_todo", ["ids": [second.ids[1]]])
        #expect(try page(16, first.cursor).texts == ["todo 4", "todo 2"])
        // A forged cursor is refused, not overflowed.
        let forged = Data("\(first.ids[0])\n99999999999999999999\n\n\npending\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}created".utf8).base64EncodedString()
        let refused = try mcp.call(17, "list_todos", ["cursor": forged, "limit": 2])
        #expect(refused["isError"] as? Bool == true)
    }

    /// Paging through every sort, ties in creation time and due date included,
    /// lists what `todo list --sort` lists, in its order, each todo once.
    @Test(arguments: ["created", "due", "priority"])
    func pagesFollowTheListsOrder(sort: String) throws {
        var generator = SystemRandomNumberGenerator()
        let todos = (0..<30).map { number -> String in
            let due = ["null", "\"2031-05-0\(Int.random(in: 1...3, using: &generator))\""].randomElement(using: &generator)!
            let priority = ["null", "\"high\"", "\"low\""].randomElement(using: &generator)!
            let created = "2026-01-0\(Int.random(in: 1...3, using: &generator))T00:00:00.000Z"
            return #"{"id":"\#(UUID().uuidString.lowercased())","text":"todo \#(number)","done":false,"createdAt":"\#(created)","due":\#(due),"priority":\#(priority)}"#
        }
        let file = todo.directory.appendingPathComponent("todos.json")
        try Data(("[" + todos.joined(separator: ",") + "]").utf8).write(to: file)
        _ = try todo.ok(["import", file.path])
        let expected = try todo.listJSON(["--sort", sort]).compactMap { $0["id"] as? String }
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        var listed: [String] = []
        var cursor: String?
        for call in 1...20 {
            var arguments: [String: Any] = ["limit": 4, "sort": sort]
            if let cursor { arguments["cursor"] = cursor }
            let content = try #require(try mcp.call(call, "list_todos", arguments)["structuredContent"] as? [String: Any])
            listed += (content["todos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = content["next_cursor"] as? String
            if cursor == nil { break }
        }
        #expect(listed == expected)
    }

    @Test func anUndoDryRunRefusesWhatTheUndoWouldAndForceShowsWhatItWouldWrite() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        _ = try mcp.call(1, "add_todo", ["text": "milk"])
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        _ = try mcp.call(2, "edit_todo", ["id": id, "text": "oat milk"])
        // Another program changes the todo behind the journal's back.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [todo.databasePath, "UPDATE todo SET text = 'soy milk', searchText = 'soy milk' WHERE id = '\(id)'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try todo.ok(["list", "--all", "--json"])
        let refused = try mcp.call(3, "undo", ["dry_run": true])
        #expect(refused["isError"] as? Bool == true)
        let text = ((refused["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(text.contains(id) && text.contains("force: true"), "\(text)")
        let forced = try mcp.call(4, "undo", ["dry_run": true, "force": true])
        let change = try #require(((forced["structuredContent"] as? [String: Any])?["changes"] as? [[String: Any]])?.first)
        #expect((change["after"] as? [String: Any])?["text"] as? String == "milk")
        #expect(try todo.ok(["list", "--all", "--json"]) == before)
        #expect(try todo.ok(["undo", "--list"]).contains("edit"))
    }

    @Test func anAmbiguousShortIDListsTheCandidates() throws {
        let first = "aaaa1111-0000-4000-8000-000000000001", second = "aaaa2222-0000-4000-8000-000000000002"
        let file = todo.directory.appendingPathComponent("two.json")
        try Data("""
            [{"id":"\(first)","text":"one","done":false,"createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"\(second)","text":"two","done":false,"createdAt":"2026-01-01T00:00:00.000Z"}]
            """.utf8).write(to: file)
        _ = try todo.ok(["import", file.path])
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let result = try mcp.call(1, "get_todo", ["id": "aaaa"])
        let text = ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(result["isError"] as? Bool == true)
        #expect(text == "'aaaa' matches 2 todos: give the full ID of one of them: \(first) “one”; \(second) “two”", "\(text)")
        let got = try mcp.call(2, "get_todo", ["id": "AAAA2222"])
        #expect(((got["structuredContent"] as? [String: Any])?["todo"] as? [String: Any])?["id"] as? String == second)
    }

    @Test func aRequestLargerThanOneMebibyteIsRefusedAndTheSessionGoesOn() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let huge = String(repeating: "x", count: 1 << 20)
        try mcp.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "add_todo", "arguments": ["text": huge]]])
        let answer = try mcp.next()
        #expect(error(of: answer).code == -32600)
        #expect(error(of: answer).message.contains("1 MiB"))
        #expect(try mcp.call(2, "add_todo", ["text": "small"])["isError"] == nil)
        #expect(try todo.listJSON(["--all"]).map { $0["text"] as? String } == ["small"])
    }

    @Test func aClientThatClosesStandardInputMidCallGetsItsCallFinishedAndTheServerEnds() throws {
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        try mcp.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "add_todo", "arguments": ["text": "last words"]]])
        try mcp.closeInput()
        #expect(try mcp.exitStatus() == 0)
        // The call was carried out whole, once, and answered.
        #expect(try todo.listJSON(["--all"]).map { $0["text"] as? String } == ["last words"])
        #expect(try mcp.next()["id"] as? Int == 1)
    }

    @Test func dryRunsChangeNothingAndAnAssistantsChangeIsUndoneByTodoUndo() throws {
        _ = try todo.ok(["add", "water plants", "--due", "2031-05-01", "--repeat", "weekly"])
        let before = try todo.ok(["list", "--all", "--json"])
        let id = try #require(try todo.listJSON(["--all"]).first?["id"] as? String)
        let mcp = try MCPPipe(database: todo.databasePath)
        _ = try mcp.initialize()
        let calls: [(String, [String: Any])] = [
            ("add_todo", ["text": "new", "dry_run": true]),
            ("edit_todo", ["id": id, "text": "water the garden", "due": NSNull(), "repeat": NSNull(), "dry_run": true]),
            ("complete_todo", ["ids": [id], "dry_run": true]),
            ("delete_todo", ["ids": [id], "dry_run": true]),
        ]
        for (index, (tool, arguments)) in calls.enumerated() {
            let result = try mcp.call(index + 1, tool, arguments)
            let content = try #require(result["structuredContent"] as? [String: Any], "\(result)")
            #expect(content["dry_run"] as? Bool == true)
            #expect(!((content["changes"] as? [Any]) ?? []).isEmpty)
        }
        #expect(try todo.ok(["list", "--all", "--json"]) == before)
        #expect(try todo.ok(["undo", "--list"]).components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)

        let done = try mcp.call(9, "complete_todo", ["ids": [String(id.prefix(6))]])
        #expect(((done["structuredContent"] as? [String: Any])?["changes"] as? [Any])?.count == 2)
        #expect(try todo.listJSON(["--all"]).count == 2)
        _ = try todo.ok(["undo"])
        #expect(try todo.ok(["list", "--all", "--json"]) == before)
    }
}
