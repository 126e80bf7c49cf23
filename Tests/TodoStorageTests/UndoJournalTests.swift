import Foundation
import GRDB
import Testing
import TestSupport
import TodoCore
@testable import TodoStorage

/// The undo journal: each write made here is taken back exactly, the latest
/// first, and only those.
@Suite("Undo journal")
struct UndoJournalTests {
    static let start = Date(millisecondsSince1970: 1_790_000_000_000)

    static func date(_ seconds: Int) -> Date { start + TimeInterval(seconds) }

    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", n))!
    }

    /// A todo with every field set.
    static func full(_ n: Int, _ text: String) -> TodoItem {
        TodoItem(
            id: id(n), text: text, createdAt: date(n), due: .day(CalendarDay(year: 2026, month: 12, day: n % 28 + 1)!),
            priority: .medium, tags: ["home", "t\(n)"], note: "line one\nline two", recurrence: TodoRepeat(parsing: "2w")
        )
    }

    /// Every todo, by id.
    static func contents(_ db: AppDatabase) throws -> [TodoItem] {
        try db.fetchListed(TodoRequest(status: .all)).map(\.item).sorted { $0.idString < $1.idString }
    }

    /// The todos with `updatedAt` left out of the comparison.
    static func fields(_ items: [TodoItem]) -> [TodoItem] {
        items.map { var item = $0; item.updatedAt = start; return item }
    }

    @Test func everyKindOfWriteIsUndoneExactlyTheLatestFirst() throws {
        let db = try AppDatabase.inMemory()
        var snapshots: [[TodoItem]] = [try Self.contents(db)]
        func step(_ write: () throws -> Void) throws {
            try write()
            snapshots.append(try Self.contents(db))
        }
        let rent = Self.full(1, "pay rent")
        try step { try db.insertTodo(rent) }
        try step { try db.insertTodo(Self.full(2, "water plants")) }
        // An edit of every field.
        var edited = rent
        edited.text = "pay the rent"
        edited.due = .moment(Self.date(99_000))
        edited.priority = nil
        edited.tags = ["bills"]
        edited.note = nil
        edited.recurrence = nil
        edited.updatedAt = Self.date(10)
        try step { try db.updateTodos([edited]) }
        // Done on a repeating todo, with the next occurrence it brings.
        let plants = try #require(try Self.contents(db).first { $0.text == "water plants" })
        let done = plants.marking(done: true, at: Self.date(20))
        let next = try #require(done.nextOccurrence(at: Self.date(20), in: TimeZone(identifier: "UTC")!))
        try step { try db.updateTodos([done], addingIfAbsent: [next]) }
        try step { try db.updateTodos([done.marking(done: false, at: Self.date(30))]) }
        try step { try db.deleteTodos(ids: [rent.id, next.id]) }
        var updated = Self.full(2, "water the plants")
        updated.updatedAt = Self.date(40)
        try step { _ = try db.importTodos([updated, Self.full(3, "imported")]) }

        #expect(try db.undoJournal(limit: 100).map(\.command) == ["import", "rm", "undone", "done", "edit", "add", "add"])
        #expect(try db.undoJournal(limit: 100).map(\.summary) == [
            "import of 2 todos (1 added, 1 updated)",
            "delete of 2 todos",
            "undone mark of “water plants”",
            "done mark of “water plants” and the next occurrence it added",
            "edit of “pay the rent”",
            "add of “water plants”",
            "add of “pay rent”",
        ])
        for (index, expected) in snapshots.dropLast().enumerated().reversed() {
            let undoneAt = Self.date(1_000 + index)
            let change = try db.undoLatest(force: false, at: undoneAt)
            let now = try Self.contents(db)
            // Never synced: every todo exactly as it was, dates and edit times included.
            #expect(now == expected, "undoing the \(change.summary)")
            for item in change.restored {
                #expect(now.first { $0.id == item.id } == item)
            }
        }
        #expect(try Self.contents(db).isEmpty)
        #expect(throws: TodoError.nothingToUndo) { try db.undoLatest(force: false, at: Self.date(2_000)) }
    }

    /// The journal dates each change by the database's clock, which a test sets.
    @Test func changesAreDatedByTheInjectedClock() throws {
        var db = try AppDatabase.inMemory()
        db.now = { Self.date(42) }
        try db.insertTodo(Self.full(1, "milk"))
        db.now = { Self.date(43) }
        try db.deleteTodos(ids: [Self.id(1)])
        #expect(try db.undoJournal(limit: 2).map(\.at) == [Self.date(43), Self.date(42)])
    }

    @Test func aDeletedTodoComesBackWithItsIDAndEveryField() throws {
        let db = try AppDatabase.inMemory()
        let item = Self.full(7, "renew passport")
        try db.insertTodo(item)
        try db.deleteTodos(ids: [item.id])
        let change = try db.undoLatest(force: false, at: Self.date(500))
        #expect(change.summary == "delete of “renew passport”")
        #expect(try Self.contents(db) == [item])
        #expect(try db.resolveListed(idPrefixes: ["0000"]).first?.item.id == item.id)
    }

    @Test func undoWalksBackFarMoreThanAHundredSteps() throws {
        let db = try AppDatabase.inMemory()
        for n in 1...75 {
            try db.insertTodo(TodoItem(id: Self.id(n), text: "todo \(n)", createdAt: Self.date(n)))
            try db.updateTodos([TodoItem(id: Self.id(n), text: "todo \(n) edited", createdAt: Self.date(n), updatedAt: Self.date(n + 1))])
        }
        #expect(try db.undoJournal(limit: .max).count == 150)
        for n in (1...75).reversed() {
            #expect(try db.undoLatest(force: false, at: Self.date(9_000)).summary == "edit of “todo \(n) edited”")
            #expect(try db.undoLatest(force: false, at: Self.date(9_000)).summary == "add of “todo \(n)”")
        }
        #expect(try Self.contents(db).isEmpty)
    }

    @Test func theJournalKeepsTheLatestThousandChanges() throws {
        let db = try AppDatabase.inMemory()
        for n in 1...1_060 {
            try db.insertTodo(TodoItem(id: Self.id(n), text: "todo \(n)", createdAt: Self.date(n)))
        }
        let kept = try db.undoJournal(limit: .max)
        #expect((AppDatabase.undoLimit...AppDatabase.undoLimit + 50).contains(kept.count))
        #expect(kept.first?.summary == "add of “todo 1060”")
        #expect(kept.last?.summary == "add of “todo \(1_061 - kept.count)”")
    }

    @Test func aChangeThatChangedNothingIsPassedOver() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(item)
        try db.updateTodos([item])
        #expect(try db.undoJournal(limit: 10).map(\.command) == ["add"])
        #expect(try db.undoLatest(force: false, at: Self.date(5)).command == "add")
        #expect(try Self.contents(db).isEmpty)
    }

    @Test func aTodoChangedSinceBySomethingUnjournaledStopsUndoUnlessForced() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(item)
        try db.updateTodos([item.editing(text: "oat milk", at: Self.date(2))])
        // As a sync writes: straight to the table, not through the journaled writes.
        try db.dbWriter.write { try $0.execute(sql: "UPDATE todo SET text = 'soy milk' WHERE id = ?", arguments: [item.idString]) }
        #expect(throws: TodoError.undoConflict(change: "edit of “oat milk”", text: "soy milk", id: "00000000")) {
            try db.undoLatest(force: false, at: Self.date(3))
        }
        #expect(try Self.contents(db).map(\.text) == ["soy milk"])
        #expect(try db.undoJournal(limit: 10).count == 2)
        // Only the time of a change differing is no change.
        try db.dbWriter.write { try $0.execute(sql: "UPDATE todo SET text = 'oat milk', updatedAt = 7 WHERE id = ?", arguments: [item.idString]) }
        #expect(try db.undoLatest(force: false, at: Self.date(4)).command == "edit")
        try db.dbWriter.write { try $0.execute(sql: "UPDATE todo SET text = 'rice milk' WHERE id = ?", arguments: [item.idString]) }
        #expect(try db.undoLatest(force: true, at: Self.date(5)).command == "add")
        #expect(try Self.contents(db).isEmpty)
    }

    /// Undo refuses only for a field it would put back: another field
    /// changed since (by a sync) is kept, and the edit is undone unforced.
    @Test func aChangeSinceToAnotherFieldDoesNotStopUndoAndIsKept() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(item)
        try db.updateTodos([item.editing(text: "oat milk", at: Self.date(2))])
        try db.dbWriter.write { try $0.execute(sql: "UPDATE todo SET priority = 1 WHERE id = ?", arguments: [item.idString]) }
        #expect(try db.undoLatest(force: false, at: Self.date(3)).command == "edit")
        #expect(try Self.contents(db).map(\.text) == ["milk"])
        #expect(try Self.contents(db).map(\.priority) == [.high])
        // The add, undone, would delete a todo changed since: refused.
        #expect(throws: TodoError.undoConflict(change: "add of “milk”", text: "milk", id: "00000000")) {
            try db.undoLatest(force: false, at: Self.date(4))
        }
    }

    /// Redo brings back, exactly, what undo took back, the last taken back
    /// first; a change made since ends what redo can bring back.
    @Test func redoWalksForwardExactlyUntilANewChange() throws {
        let db = try AppDatabase.inMemory()
        let milk = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(milk)
        let added = try Self.contents(db)
        try db.updateTodos([milk.editing(text: "oat milk", at: Self.date(2))])
        let edited = try Self.contents(db)
        try db.deleteTodos(ids: [milk.id])
        _ = try db.undoLatest(force: false, at: Self.date(3))
        _ = try db.undoLatest(force: false, at: Self.date(4))
        #expect(try Self.contents(db) == added)
        #expect(try db.redoLatest(at: Self.date(5)).summary == "edit of “oat milk”")
        #expect(try Self.contents(db) == edited)
        #expect(try db.redoLatest(at: Self.date(6)).command == "rm")
        #expect(try Self.contents(db).isEmpty)
        #expect(throws: TodoError.nothingToRedo) { try db.redoLatest(at: Self.date(7)) }
        // Undo again, then a new change: nothing left to redo.
        _ = try db.undoLatest(force: false, at: Self.date(8))
        try db.insertTodo(TodoItem(id: Self.id(2), text: "bread", createdAt: Self.date(9)))
        #expect(throws: TodoError.nothingToRedo) { try db.redoLatest(at: Self.date(10)) }
        #expect(try db.undoJournal(limit: 10).map(\.command) == ["add", "edit", "add"])
    }

    /// Forced, undo puts back only the fields the change wrote: a field a
    /// sync changed since keeps that change.
    @Test func aForcedUndoPutsBackOnlyTheFieldsTheChangeWrote() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(item)
        try db.updateTodos([item.editing(text: "oat milk", at: Self.date(2))])
        // A sync brings another replica's priority, and changes the text too.
        try db.dbWriter.write {
            try $0.execute(sql: "UPDATE todo SET text = 'soy milk', priority = 1 WHERE id = ?", arguments: [item.idString])
        }
        _ = try db.undoLatest(force: true, at: Self.date(3))
        let undone = try #require(try Self.contents(db).first)
        #expect(undone.text == "milk")
        #expect(undone.priority == .high)
    }

    /// An edit a sync already sent is put back as a new edit, stamped with
    /// the undo's time, so the next sync sends it as the newest; one no sync
    /// saw is put back as it was.
    @Test func anUndoneEditASyncSentIsStampedAndOneItDidNotIsNot() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: Self.id(1), text: "milk", createdAt: Self.date(1))
        try db.insertTodo(item)
        try db.updateTodos([item.editing(text: "oat milk", at: Self.date(2))])
        // The edit was synced: the server held "oat milk".
        try db.dbWriter.write {
            try $0.execute(sql: "INSERT INTO syncBase(todoId, remoteId, text, isDone) VALUES (?, '1', 'oat milk', 0)", arguments: [item.idString])
        }
        _ = try db.undoLatest(force: false, at: Self.date(3))
        let undone = try #require(try Self.contents(db).first)
        #expect(undone.text == "milk" && undone.editedAt[.text] == Self.date(3) && undone.updatedAt == Self.date(3))
        try db.updateTodos([undone.editing(text: "rice milk", at: Self.date(4))])
        _ = try db.undoLatest(force: false, at: Self.date(5))
        #expect(try Self.contents(db) == [undone])
    }

    @Test(arguments: [10, 1_500])
    func undoOfAnImportRemovesWhatItAddedAndRestoresWhatItUpdated(count: Int) throws {
        let db = try AppDatabase.inMemory()
        let kept = TodoItem(id: Self.id(1_000_001), text: "kept", createdAt: Self.date(1))
        let replaced = Self.full(1_000_002, "replaced")
        let older = TodoItem(id: Self.id(1_000_003), text: "newer here", createdAt: Self.date(1), updatedAt: Self.date(50))
        for item in [kept, replaced, older] { try db.insertTodo(item) }
        let before = try Self.contents(db)
        let shortIDs = try db.fetchListed(TodoRequest(status: .all)).map(\.shortID).sorted()

        var replacing = replaced
        replacing.text = "replaced by the import"
        replacing.tags = []
        replacing.updatedAt = Self.date(2_000_000)
        let new = (1...count).map { Self.full($0, "imported \($0)") }
        let olderCopy = TodoItem(id: older.id, text: "older there", createdAt: Self.date(1), updatedAt: Self.date(40))
        let summary = try db.importTodos(new + [replacing, olderCopy])
        #expect(summary.counts == [count, 1, 1])
        #expect(try db.undoJournal(limit: 1).first?.summary == "import of \(count + 1) todos (\(count) added, 1 updated)")
        let imported = try Self.contents(db)
        let importedShortIDs = try db.fetchListed(TodoRequest(status: .all)).map(\.shortID).sorted()
        let search = TodoRequest(status: .all, query: "imported 7")
        #expect(!(try db.fetchListed(search)).isEmpty)

        // At 1,500 the undo deletes in bulk and the redo inserts in bulk:
        // the same rows, short IDs and search index as one by one.
        var reports: [TodoUndo.Progress] = []
        let change = try db.undoLatest(force: false, at: Self.date(100)) { reports.append($0) }
        #expect(change.changes.count == count + 1)
        #expect(try Self.fields(Self.contents(db)) == Self.fields(before))
        // The short IDs are as if the import never happened.
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.shortID).sorted() == shortIDs)
        #expect(try db.fetchListed(search).isEmpty)
        // Progress grows to its total, every thousand rows and at the end.
        #expect(reports.last.map { $0.done == $0.total } ?? false)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.done < $1.done })
        #expect(count < 1_000 || reports.count > 3)

        _ = try db.redoLatest(at: Self.date(200))
        // What it added, exactly; what it replaced, by value (redo stamps its edit).
        #expect(try Self.contents(db).filter { item in new.contains { $0.id == item.id } } == imported.filter { item in new.contains { $0.id == item.id } })
        #expect(try Self.contents(db).map(\.text) == imported.map(\.text))
        #expect(try db.fetchListed(TodoRequest(status: .all)).map(\.shortID).sorted() == importedShortIDs)
        #expect(!(try db.fetchListed(search)).isEmpty)
    }

    @Test func importingWithoutReplacingKeepsWhatIsHere() throws {
        let db = try AppDatabase.inMemory()
        let here = TodoItem(id: Self.id(1), text: "edited here", createdAt: Self.date(1), updatedAt: Self.date(2))
        try db.insertTodo(here)
        let again = TodoItem(id: Self.id(1), text: "as in the file", createdAt: Self.date(1), updatedAt: Self.date(9))
        #expect(try db.importTodos([again], replacing: .never).counts == [0, 0, 1])
        #expect(try Self.contents(db) == [here])
        // An import that changed nothing leaves nothing to undo but the add.
        #expect(try db.undoJournal(limit: 10).map(\.command) == ["add"])
    }
}
