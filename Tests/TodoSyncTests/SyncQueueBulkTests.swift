import Foundation
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// Sync registers how its queue is filled for a bulk insert
/// (`BulkInsertWork.syncQueue`); with it, a large import or undo leaves what
/// the queue's trigger, firing row by row, leaves.
@Suite("Sync's queue in bulk inserts")
struct SyncQueueBulkTests {
    @Test func anImportWithSyncsQueueRegisteredQueuesWhatTheTriggerQueues() throws {
        let items = StoredContents.todos(1_500, seed: 11, from: 0)
        var registered = try AppDatabase.inMemory()
        registered.bulkInsertWork = registered.bulkInsertWork.merging(.syncQueue)
        let byTrigger = try AppDatabase.inMemory()
        _ = try registered.importTodos(items)
        _ = try byTrigger.importTodos(items)
        let (bulk, expected) = (try StoredContents(registered), try StoredContents(byTrigger))
        #expect(bulk == expected)
        #expect(bulk.pending == items.map(\.idString))
        #expect(try StoredContents.schema(registered) == StoredContents.schema(byTrigger))

        // Undone and redone in bulk: the queue again as the trigger leaves it.
        for db in [registered, byTrigger] {
            _ = try db.undoLatest(force: false, at: Date(millisecondsSince1970: 50))
            _ = try db.redoLatest(at: Date(millisecondsSince1970: 60))
        }
        #expect(try StoredContents(registered) == StoredContents(byTrigger))
        try StoredContents.checkSearchIndex(registered)
    }
}
