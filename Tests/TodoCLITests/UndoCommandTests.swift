import Foundation
import Testing
import TodoCore
import TodoStorage
import TestSupport

/// `todo undo` end to end: each command's change, made by one process, is
/// taken back by another, exactly.
@Suite("todo undo", .threadsOfTheirOwn)
struct UndoCommandTests {
    let todo: TodoProcess

    init() throws {
        todo = try TodoProcess()
    }

    /// Every todo in the database, by id, as the binary left it.
    func contents() throws -> [TodoItem] {
        let db = try AppDatabase.open(path: todo.databasePath)
        defer { try? db.close() }
        return try db.fetchListed(TodoRequest(status: .all)).map(\.item).sorted { $0.idString < $1.idString }
    }

    /// The todos with the time of their last change left out of the comparison.
    static func fields(_ items: [TodoItem]) -> [TodoItem] {
        items.map { var item = $0; item.updatedAt = Date(millisecondsSince1970: 0); return item }
    }

    static let rentID = "7e57a000-0000-4000-8000-000000000001"
    static let importFile = """
        [{"id":"\(rentID)","text":"pay rent","done":false,"createdAt":"2026-11-20T10:00:00.000Z",
          "updatedAt":"2026-11-20T10:00:00.000Z","completedAt":null,"due":"2026-12-01","priority":"high",
          "tags":["bills","home"],"note":"IBAN\\nin the mail","repeat":"monthly"},
         {"id":"7e57a000-0000-4000-8000-000000000002","text":"call mom","createdAt":"2026-11-21T10:00:00.000Z",
          "due":"2026-12-02T14:30:00.000Z","priority":"low","tags":["family"]}]
        """

    @Test func everyCommandsChangeIsUndoneExactlyTheLatestFirst() throws {
        var snapshots = [try contents()]
        func run(_ arguments: [String], stdin: String? = nil) throws {
            _ = try todo.ok(arguments, stdin: stdin)
            snapshots.append(try contents())
        }
        try run(["import", "-"], stdin: Self.importFile)
        try run(["add", "buy milk"])
        let milk = try #require(try contents().first { $0.text == "buy milk" }).idString
        try run(["edit", milk, "buy oat milk"])
        // Done on a repeating todo brings the next one; undo takes both back.
        try run(["done", Self.rentID])
        #expect(try contents().count == 4)
        try run(["done", milk])
        try run(["undone", milk])
        try run(["rm", Self.rentID, milk])

        let listed = try todo.ok(["undo", "--list"]).split(separator: "\n")
        #expect(listed.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] } == [
            "rm", "undone", "done", "done", "edit", "add", "import",
        ])
        #expect(listed[0].hasSuffix("  rm     delete of 2 todos"))
        #expect(listed[3].hasSuffix("  done   done mark of “pay rent” and the next occurrence it added"))
        #expect(listed[6].hasSuffix("  import import of 2 todos"))

        let said = [
            "delete of 2 todos", "undone mark of “buy oat milk”", "done mark of “buy oat milk”",
            "done mark of “pay rent” and the next occurrence it added", "edit of “buy oat milk”",
            "add of “buy milk”", "import of 2 todos",
        ]
        for (message, expected) in zip(said, snapshots.dropLast().reversed()) {
            #expect(try todo.ok(["undo"]) == "Undid the \(message).\n")
            #expect(Self.fields(try contents()) == Self.fields(expected), "after undoing the \(message)")
        }
        #expect(try contents().isEmpty)
        let nothing = try todo.run(["undo"])
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("nothing to undo"))
        #expect(try todo.ok(["undo", "--list"]) == "Nothing to undo.\n")
    }

    @Test func aDeletedTodoComesBackWithItsIDAndEveryField() throws {
        _ = try todo.ok(["import", "-"], stdin: Self.importFile)
        let before = try contents()
        _ = try todo.ok(["rm", Self.rentID])
        _ = try todo.ok(["undo"])
        let after = try contents()
        #expect(Self.fields(after) == Self.fields(before))
        #expect(after.map(\.idString).contains(Self.rentID))
    }

    @Test func listAndForceTogetherAreAUsageError() throws {
        let result = try todo.run(["undo", "--list", "--force"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--list changes nothing"))
    }
}
