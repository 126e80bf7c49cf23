import Foundation
import Testing
import TestSupport

/// The guide's examples run: each `todo` line of the command-line tour in
/// README.md, in order, on a fresh database, succeeds. The IDs the examples
/// show (`91bc`) are the ones their `todo add` lines said (`# Added 91bc`),
/// swapped for the IDs the real adds print.
@Suite(.threadsOfTheirOwn)
struct DocsExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of the first ```sh block after `heading` in `file`.
    static func shellBlock(in file: String, after heading: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let section = try #require(text.range(of: "\n" + heading + "\n"), "\(file) has no \(heading)")
        let rest = text[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return rest[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    @Test func theREADMEsTourOfTheCommandLineRuns() throws {
        let lines = try Self.shellBlock(in: "README.md", after: "## The command line")
        #expect(lines.count >= 10)
        let todo = try TodoProcess()
        var ids: [String: String] = [:]
        for line in lines {
            let parts = line.components(separatedBy: "  #")
            var command = parts[0].trimmingCharacters(in: .whitespaces)
            guard command.hasPrefix("todo") else { continue }
            for (shown, real) in ids { command = command.replacingOccurrences(of: " \(shown)", with: " \(real)") }
            // Through a shell, as typed: its quotes and redirections.
            let folder = TodoProcess.executable.deletingLastPathComponent().path
            let result = try todo.run(
                ["-c", "cd \"$1\" && \(command)", "sh", todo.directory.path], shell: true,
                environment: ["PATH": folder + ":/usr/bin:/bin"]
            )
            #expect(result.status == 0, "\(command): \(result.stderr)")
            // `# Added 91bc …`: the example's ID, and the one this add printed.
            if parts.count > 1, let shown = parts[1].firstMatch(of: /Added ([0-9a-f]{4,})/)?.1,
               let real = result.stdout.firstMatch(of: /Added ([0-9a-f]{4,})/)?.1 {
                ids[String(shown)] = String(real)
            }
        }
        #expect(ids.count == 2, "the tour's adds name 91bc and 3f2a")
    }
}
