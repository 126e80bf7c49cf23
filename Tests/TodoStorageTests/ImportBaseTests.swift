import Foundation
import GRDB
import Testing
import TestSupport
import TodoCore
@testable import TodoStorage

/// What an import remembers of each todo (`importBase`): no more than it
/// needs, and forgotten with the import undo takes back.
struct ImportBaseTests {
    static func at(_ seconds: Int64) -> Date { Date(millisecondsSince1970: 1_790_000_000_000 + seconds * 1_000) }

    static func rows(_ db: AppDatabase) throws -> Int {
        try db.dbWriter.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM importBase") } ?? 0
    }

    static func text(_ db: AppDatabase) throws -> [String] {
        try db.fetchListed(TodoRequest(status: .all)).map(\.item.text)
    }

    @Test func aTodoKeepsTwoBasesAtMostAndOneSeenAgainWritesNone() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: UUID(), text: "v1", createdAt: Self.at(0))
        func version(_ n: Int64) -> TodoItem {
            var next = item
            next.text = "v\(n)"
            next.updatedAt = Self.at(n)
            return next
        }
        _ = try db.importTodos([item])
        #expect(try Self.rows(db) == 1)
        // The same file again: nothing new was seen.
        #expect(try db.importTodos([item]).counts == [0, 0, 1])
        #expect(try Self.rows(db) == 1)
        for n: Int64 in 2...4 { #expect(try db.importTodos([version(n)]).counts == [0, 1, 0]) }
        #expect(try Self.rows(db) == 2)
        #expect(try Self.text(db) == ["v4"])

        // Undo takes the last import back, and the one before is the base
        // again: the same file again applies again.
        _ = try db.undoLatest(force: false, at: Self.at(100))
        #expect(try Self.text(db) == ["v3"])
        #expect(try db.importTodos([version(4)]).counts == [0, 1, 0])
        #expect(try Self.text(db) == ["v4"])
    }

    @Test func aDryRunWritesNothingNotEvenWhatItSaw() throws {
        let db = try AppDatabase.inMemory()
        let item = TodoItem(id: UUID(), text: "milk", createdAt: Self.at(0))
        let summary = try db.importTodos([item], dryRun: true)
        #expect(summary.counts == [1, 0, 0] && summary.added == [0])
        #expect(try Self.rows(db) == 0)
        #expect(try Self.text(db).isEmpty)
        #expect(try db.undoJournal(limit: 5).isEmpty)
    }
}
