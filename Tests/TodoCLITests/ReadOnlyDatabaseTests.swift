import Foundation
import Testing
import TestSupport

/// A database in a folder `todo` cannot write (a shared or backed-up copy): it
/// lists, searches and shows; a write fails in one line saying the folder is
/// read-only, and the file is left as it was.
@Suite("todo on a read-only database", .threadsOfTheirOwn)
struct ReadOnlyDatabaseTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Runs `todo ARGS` unable to write the test's folder: as the user nobody
    /// when the tests run as root (root writes anything), else with the folder
    /// made read-only for the run.
    func runReadOnly(_ arguments: [String]) throws -> TodoProcess.Result {
        let command = ([TodoProcess.executable.path] + arguments + ["--database", todo.databasePath])
            .map(TerminalOutputTests.quoted).joined(separator: " ")
        if getuid() == 0 {
            return try todo.run(["-c", "setpriv --reuid=65534 --regid=65534 --clear-groups -- \(command)"], shell: true)
        }
        let folder = todo.directory.path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        return try todo.run(["-c", command], shell: true)
    }

    @Test func itListsButRefusesWritesSayingTheFolderIsReadOnly() throws {
        _ = try todo.ok(["add", "milk"])
        _ = try todo.ok(["add", "bread"])
        let before = try Data(contentsOf: URL(fileURLWithPath: todo.databasePath))

        let listed = try runReadOnly(["list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("milk") && listed.stdout.contains("bread"))
        let searched = try runReadOnly(["list", "--query", "MIL"])
        #expect(searched.status == 0, "\(searched.stderr)")
        #expect(searched.stdout.contains("milk") && !searched.stdout.contains("bread"))

        let added = try runReadOnly(["add", "tea"])
        #expect(added.status == 1)
        #expect(added.stdout.isEmpty)
        #expect(added.stderr == "Error: the folder \(todo.directory.path) is read-only, so the database \(todo.databasePath) can be listed but not changed: make the folder writable, or copy the database elsewhere and use --database PATH\n")
        let synced = try runReadOnly(["sync", "--server", "http://127.0.0.1:9"])
        #expect(synced.status == 1)
        #expect(synced.stderr.contains("the folder \(todo.directory.path) is read-only"), "\(synced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: todo.databasePath)) == before)
        #expect(try todo.listJSON().count == 2)
    }
}
