import ArgumentParser
import Foundation
import TodoCore
import TodoMCP
import TodoSync

struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the todos to an assistant, over MCP on standard input and output.",
        discussion: """
            A Model Context Protocol server (revision 2025-11-25) for an MCP client to start: \
            it reads JSON-RPC from standard input and answers on standard output until input \
            ends. Its tools list todos (and what to do next), get, add, edit, complete, reopen and \
            delete them (by IDs, or by list's filters), undo, and \
            sync with the server todo sync last used (offered once one is remembered). Every \
            change can be a dry run, is in the undo journal like any other (todo undo takes it \
            back), and shows in an open todo ui within a second. README.md shows how to register \
            it with a client.

            Example, in a client's mcpServers:
              "todo": { "command": "todo", "args": ["mcp"] }
            """
    )

    @OptionGroup var database: DatabaseOptions

    @MainActor
    mutating func run() async throws {
        // A client that closes its end makes writes fail, not end the process:
        // the calls already read are still carried out.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let path = database.resolvedPath
        let db = try database.openForSync()
        let remembered = try await SyncSettings.load(from: SQLiteSyncStore(db)).server != nil || environment["TODO_SERVER"] != nil
        let calls = TodoToolCalls(
            logic: TodoLogic(over: db), tools: TodoToolCatalog.tools(offeringSync: remembered),
            syncer: remembered ? try RememberedServerSync(databasePath: path, environment: environment) : nil,
            // next_todos ranks as todo next does, by the person's configured weights.
            weights: try TodoConfig.load().weights
        )
        await MCPSession(calls: calls, version: TodoCommand.version).run()
    }
}
