import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Database Access: cycles a sync brought

extension SQLiteSyncStore {
    /// `SyncStore.breakLinkCycles`: read and written in one transaction, so
    /// an edit made meanwhile is never written over; only the links cut
    /// change. Not journaled for undo (undoing it would bring the cycle back).
    public func breakLinkCycles(at date: Date) async throws -> Int {
        // Most databases have no link at all: a read, not a write lock.
        guard try database.hasLinkedTodos() else { return 0 }
        return try write { db in
            let nodes = try AppDatabase.linkedTodos(db)
            let before = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var changed = 0
            for node in TodoLinks.breakingCycles(in: nodes) {
                guard let old = before[node.id], let row = try Row.fetchOne(
                    db, sql: "SELECT \(TodoItem.selection) FROM todo WHERE id = ?", arguments: [node.id.lowercasedString]
                ), let item = TodoItem(row: row) else { continue }
                var edited = item
                if node.parent != old.parent { edited.parent = node.parent }
                let cut = Set(old.blockedBy).subtracting(node.blockedBy)
                if !cut.isEmpty { edited.blockedBy.removeAll(where: cut.contains) }
                let stamped = item.stamping(edited, at: date)
                guard stamped != item else { continue }
                try db.execute(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: stamped.databaseValues)
                changed += 1
            }
            return changed
        }
    }
}
