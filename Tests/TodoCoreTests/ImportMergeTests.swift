import Foundation
import Testing
import TodoCore

/// `ImportMerge`: a re-import against what the last import saw, field by field.
struct ImportMergeTests {
    static func at(_ seconds: Int64) -> Date { Date(millisecondsSince1970: 1_790_000_000_000 + seconds * 1_000) }

    /// A todo as an import first brought it.
    static let base = TodoItem(
        id: UUID(uuidString: "892d0c1e-0000-4000-8000-000000000001")!, text: "Email Bob", createdAt: at(0), updatedAt: at(0),
        priority: .low, tags: ["work"]
    )

    /// `base` edited here at `seconds`.
    static func here(_ seconds: Int64, _ change: (inout TodoItem) -> Void) -> TodoItem {
        var edited = base
        change(&edited)
        return base.stamping(edited, at: at(seconds))
    }

    /// The file's version: `base` changed, its whole task modified at `seconds` (Taskwarrior's `modified`).
    static func file(_ seconds: Int64, _ change: (inout TodoItem) -> Void) -> TodoItem {
        var item = base
        change(&item)
        item.updatedAt = at(seconds)
        return item
    }

    @Test func aFieldOnlyTheFileChangedIsTakenAndOneOnlyEditedHereIsKept() {
        let here = Self.here(10) { $0.priority = .high; $0.tags = ["urgent", "work"] }
        let file = Self.file(20) { $0.text = "Email Bob about the budget" }
        let merge = ImportMerge(here: here, lastImported: ImportBase(Self.base), file: file)
        #expect(merge.taken == [.text])
        #expect(merge.conflicts.isEmpty)
        #expect(merge.merged.text == "Email Bob about the budget")
        #expect(merge.merged.priority == .high)
        #expect(merge.merged.tags == ["urgent", "work"])
        // Stamped, so a sync sends the new text on.
        #expect(merge.merged.editedAt[.text] == Self.at(20))
        #expect(merge.merged.updatedAt == Self.at(20))
    }

    @Test func aFileOlderThanTheEditHereStillGivesWhatOnlyItChanged() {
        // The file's todo was modified before the edit here, of another field.
        let here = Self.here(30) { $0.priority = .high }
        let file = Self.file(20) { $0.text = "Email Bob today" }
        let merge = ImportMerge(here: here, lastImported: ImportBase(Self.base), file: file)
        #expect(merge.taken == [.text])
        #expect(merge.merged.text == "Email Bob today" && merge.merged.priority == .high)
        // Later than every edit here, the one it replaces included.
        #expect(merge.merged.editedAt[.text] == Self.at(20))
    }

    @Test(arguments: [(here: Int64(10), file: Int64(20), keptHere: false), (here: 20, file: 10, keptHere: true), (here: 15, file: 15, keptHere: true)])
    func aFieldBothChangedIsAConflictTheLaterEditWinsAndHereOnATie(here hereTime: Int64, file fileTime: Int64, keptHere: Bool) {
        let here = Self.here(hereTime) { $0.priority = .high }
        let file = Self.file(fileTime) { $0.priority = .medium }
        let merge = ImportMerge(here: here, lastImported: ImportBase(Self.base), file: file)
        #expect(merge.conflicts == [ImportMerge.Conflict(field: .priority, here: "high", file: "medium", keptHere: keptHere)])
        #expect(merge.merged.priority == (keptHere ? .high : .medium))
        #expect(merge.changes == !keptHere)
    }

    @Test func theSameValueOnBothSidesIsNoConflict() {
        let here = Self.here(10) { $0.priority = .high }
        let file = Self.file(20) { $0.priority = .high }
        let merge = ImportMerge(here: here, lastImported: ImportBase(Self.base), file: file)
        #expect(!merge.changes && merge.conflicts.isEmpty && merge.merged == here)
    }

    @Test func aFileOlderThanTheLastImportChangesNothing() {
        let file = Self.file(-5) { $0.text = "an older export" }
        let merge = ImportMerge(here: Self.base, lastImported: ImportBase(Self.base), file: file)
        #expect(merge.isStale && !merge.changes && merge.merged == Self.base)
    }

    @Test func withoutABaseTheLaterWinsAndAFieldEditedHereIsAConflict() {
        let here = Self.here(10) { $0.priority = .high }
        let file = Self.file(20) { $0.priority = .medium; $0.text = "Email Bob now" }
        let merge = ImportMerge(here: here, lastImported: nil, file: file)
        #expect(merge.taken == [.text, .priority])
        #expect(merge.conflicts == [ImportMerge.Conflict(field: .priority, here: "high", file: "medium", keptHere: false)])

        // Older than the todo here: nothing is taken.
        let older = Self.file(5) { $0.text = "Email Bob then" }
        #expect(!ImportMerge(here: here, lastImported: nil, file: older).changes)
    }

    @Test func aMixThatBreaksARuleKeepsTheTodoHereAndSaysEveryDifference() {
        // Here the due date was cleared; the file adds a repeat, which needs one.
        var dated = Self.base
        dated.due = .day(CalendarDay(parsing: "2026-12-01")!)
        let here = dated.stamping({ var item = dated; item.due = nil; return item }(), at: Self.at(10))
        var file = dated
        file.recurrence = TodoRepeat(parsing: "weekly")
        file.updatedAt = Self.at(20)
        let merge = ImportMerge(here: here, lastImported: ImportBase(dated), file: file)
        #expect(merge.merged == here && !merge.changes)
        #expect(merge.conflicts.map(\.field) == [.due, .recurrence])
        #expect(merge.conflicts.allSatisfy { $0.keptHere })
    }

    @Test func aBaseReadsBackAsStoredAndOneWithoutAFieldFallsBackForIt() {
        let base = ImportBase(Self.base)
        #expect(ImportBase(updatedAt: base.updatedAt, data: base.data) == base)
        #expect(base.data.count == 8 * TodoField.allCases.count)
        #expect(base.holdsSame(.priority, as: Self.base) == true)
        #expect(base.holdsSame(.priority, as: Self.file(1) { $0.priority = .high }) == false)
        // Recorded before the last field existed: no digest for it.
        let older = ImportBase(updatedAt: base.updatedAt, data: base.data.dropLast(8))
        #expect(older.holdsSame(TodoField.allCases.last!, as: Self.base) == nil)
        #expect(older.holdsSame(.text, as: Self.base) == true)
    }
}
