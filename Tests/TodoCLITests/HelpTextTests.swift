import Foundation
import Testing
@testable import TodoCLI
import TestSupport

/// Every command's `--help`, exactly: the files in `Help/` are the help as
/// it stands, so a change of wording shows in the diff and is made on purpose.
/// After a deliberate change, write the new text into the file.
@Suite("todo --help, pinned", .threadsOfTheirOwn)
struct HelpTextTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")

    /// `todo` itself, then each subcommand.
    static let commands = [""] + TodoCommand.primaryCommandNames

    @Test(arguments: commands)
    func helpReadsAsPinned(command: String) throws {
        let todo = try TodoProcess()
        // ArgumentParser wraps help to $COLUMNS.
        let result = try todo.run((command.isEmpty ? [] : [command]) + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let file = Self.folder.appendingPathComponent((command.isEmpty ? "todo" : command) + ".txt")
        let pinned = try String(contentsOf: file, encoding: .utf8)
        #expect(result.stdout == pinned, "todo \(command) --help differs from \(file.lastPathComponent)")
    }

    @Test func everyPinnedFileBelongsToACommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(files == Self.commands.map { ($0.isEmpty ? "todo" : $0) + ".txt" }.sorted())
    }
}
