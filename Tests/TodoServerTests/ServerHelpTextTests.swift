import Foundation
import Testing
import TestSupport

/// `todo-server`'s `--help` and that of each `user` subcommand, exactly: the
/// files in `Help/` are the help as it stands, so a change of wording shows in
/// the diff and is made on purpose. After a deliberate change, write the new
/// text into the file (`COLUMNS=80 todo-server user add --help > Help/todo-server-user-add.txt`).
@Suite("todo-server --help, pinned")
struct ServerHelpTextTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")
    static let commands: [[String]] = [[], ["user"]] + ["add", "token", "list", "revoke", "remove"].map { ["user", $0] }

    @Test(arguments: commands)
    func helpReadsAsPinned(command: [String]) async throws {
        // ArgumentParser wraps help to $COLUMNS.
        let server = try ServerProcess(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(try await server.exitStatus() == 0)
        let name = (["todo-server"] + command).joined(separator: "-") + ".txt"
        let pinned = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        #expect(server.printed == pinned, "todo-server \(command.joined(separator: " ")) --help differs from \(name)")
    }

    @Test func everyPinnedFileBelongsToACommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(files == Self.commands.map { (["todo-server"] + $0).joined(separator: "-") + ".txt" }.sorted())
    }
}
