import Foundation
import Testing
import TestSupport

/// `todo list` on a terminal (a pseudo-terminal from `script`), for a person:
/// an empty list says so, long text wraps under its column. Piped, the output
/// stays one line per todo, and nothing for an empty list.
@Suite("todo list on a terminal", .threadsOfTheirOwn)
struct TerminalOutputTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// What `todo ARGS` prints on a terminal, without colour, carriage returns dropped.
    func onTerminal(_ arguments: [String], columns: Int? = nil) throws -> String {
        let command = ([TodoProcess.executable.path] + arguments).map(Self.quoted).joined(separator: " ")
        var environment = ["NO_COLOR": "1"]
        environment["COLUMNS"] = columns.map(String.init)
        let result = try todo.run(["-c", "script -qc \(Self.quoted(command)) /dev/null"], shell: true, environment: environment)
        #expect(result.status == 0, "\(result)")
        return result.stdout.replacingOccurrences(of: "\r", with: "")
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test func anEmptyListSaysSoOnATerminalOnly() throws {
        #expect(try onTerminal(["list"]) == "No pending todos. Add one with: todo add \"…\"\n")
        _ = try todo.ok(["add", "milk"])
        #expect(try onTerminal(["list", "--query", "bread"]) == "No pending todo contains \"bread\" (--all searches the done ones too).\n")
        #expect(try onTerminal(["list", "--done"]) == "No done todos.\n")
        // Piped, or as JSON, nothing (or an empty array), as scripts expect.
        #expect(try todo.ok(["list", "--query", "bread"]) == "")
        #expect(try todo.ok(["list", "--query", "bread", "--json"]) == "[]\n")
    }

    @Test func longTextWrapsUnderItsColumnOnANarrowTerminal() throws {
        let long = "a long todo that runs well past forty columns of a narrow terminal"
        _ = try todo.ok(["add", long])
        let id = try #require(try todo.listJSON().first?["id"] as? String)
        let shown = String(id.prefix(4))
        #expect(try onTerminal(["list"], columns: 40) == """
            [ ] \(shown)  a long todo that runs well
                      past forty columns of a narrow
                      terminal

            """)
        // Piped: one line per todo, however narrow the terminal says it is.
        let piped = try todo.run(["list"], environment: ["COLUMNS": "40"])
        #expect(piped.stdout == "[ ] \(shown)  \(long)\n")
    }

    /// A list cut at --limit with subtasks in it is read whole to build its
    /// tree, and still prints as every list does: wrapped, fields after the text.
    @Test func aLimitedListWithSubtasksWrapsAsEveryListDoes() throws {
        let file = """
            [{"id":"11110000-0000-4000-8000-000000000001","text":"paint the whole of the house before the winter comes",
              "due":"2020-01-01","createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"22220000-0000-4000-8000-000000000002","text":"buy paint",
              "parent":"11110000-0000-4000-8000-000000000001","createdAt":"2026-01-02T00:00:00.000Z"}]
            """
        _ = try todo.ok(["import", "-"], stdin: file)
        let expected = """
            [ ] 1111  paint the whole of the house
                      before the winter comes
                      due 2020-01-01
            [ ] 2222    buy paint

            """
        #expect(try onTerminal(["list"], columns: 40) == expected)
        #expect(try onTerminal(["list", "--limit", "5"], columns: 40) == expected)
    }

    @Test func theIDColumnIsAsWideAsTheWidestIDShown() throws {
        // Two todos sharing 6 characters of ID, and one shown alone.
        let file = """
            [{"id":"abcdef00-0000-4000-8000-000000000001","text":"one","createdAt":"2026-01-01T00:00:00.000Z"},
             {"id":"abcdef10-0000-4000-8000-000000000002","text":"two","createdAt":"2026-01-02T00:00:00.000Z"},
             {"id":"12340000-0000-4000-8000-000000000003","text":"three","createdAt":"2026-01-03T00:00:00.000Z"}]
            """
        _ = try todo.ok(["import", "-"], stdin: file)
        #expect(try onTerminal(["list", "--query", "three"]) == "[ ] 1234  three\n")
        #expect(try onTerminal(["list"]).hasPrefix("[ ] 1234     three\n[ ] abcdef1  two\n"))
    }
}
