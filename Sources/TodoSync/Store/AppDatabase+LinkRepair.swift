import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Database Access: cycles a sync brought

extension AppDatabase {
    /// `SyncStore.breakLinkCycles`: in one transaction, not journaled for
    /// undo (undoing it would bring the cycle back).
    public func breakLinkCycles(at date: Date) async throws -> Int {
        let nodes = try linkedTodos()
        let repaired = TodoLinks.breakingCycles(in: nodes)
        guard !repaired.isEmpty else { return 0 }
        let links = Dictionary(repaired.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try write { db in
            var changed = 0
            for node in repaired {
                guard let row = try Row.fetchOne(
                    db, sql: "SELECT \(TodoItem.selection) FROM todo WHERE id = ?", arguments: [node.id.lowercasedString]
                ), let item = TodoItem(row: row), let link = links[item.id] else { continue }
                var edited = item
                edited.parent = link.parent
                edited.blockedBy = link.blockedBy
                let stamped = item.stamping(edited, at: date)
                guard stamped != item else { continue }
                try db.execute(sql: "UPDATE todo SET \(TodoItem.updateAssignments) WHERE id = ?1", arguments: stamped.databaseValues)
                changed += 1
            }
            return changed
        }
    }
}
