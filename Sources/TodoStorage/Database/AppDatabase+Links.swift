import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: subtasks and blockers
// A todo's parent and blockers are columns of its row (`parent`, and
// `blockedBy` as a JSON array); the partial indexes of migration 0013 find
// the few todos that have them.

extension AppDatabase {
    /// The links of every todo that has a parent or blockers.
    public func linkedTodos() throws -> [TodoLinks.Node] {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in try Self.linkedTodos(db) }
        }
    }

    package static func linkedTodos(_ db: Database) throws -> [TodoLinks.Node] {
        try Row.fetchAll(db, sql: """
            SELECT id, parent, blockedBy FROM todo WHERE parent IS NOT NULL
            UNION ALL
            SELECT id, parent, blockedBy FROM todo WHERE blockedBy IS NOT NULL AND parent IS NULL
            """).compactMap { row in
            guard let id = UUID(parsing: row[0]) else { return nil }
            return TodoLinks.Node(
                id: id, parent: (row[1] as String?).flatMap(UUID.init(parsing:)),
                blockedBy: (row[2] as String?).map(IDList.decode) ?? []
            )
        }
    }

    /// The todos `ids` names that exist, with their short IDs' lengths.
    public func listedTodos(withIDs ids: [UUID]) throws -> [ListedTodo] {
        guard !ids.isEmpty else { return [] }
        return try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(TodoItem.selection) FROM todo WHERE id IN (SELECT value FROM json_each(?))
                    ORDER BY createdAt DESC, seq DESC
                    """, arguments: [IDList.encode(ids)]).compactMap { row in
                    TodoItem(row: row).map { ListedTodo(item: $0, idPrefixLength: row[6]) }
                }
            }
        }
    }

    /// The subtasks of the todos `ids` names, down every level, parents
    /// before their subtasks; each once, even in a cycle a sync left.
    public func subtasks(ofIDs ids: [UUID]) throws -> [TodoItem] {
        guard !ids.isEmpty else { return [] }
        return try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                let rows = try Row.fetchAll(db, sql: """
                    WITH RECURSIVE below(id, depth) AS (
                        SELECT value, 0 FROM json_each(?1)
                        UNION
                        SELECT todo.id, below.depth + 1 FROM todo JOIN below ON todo.parent = below.id
                        WHERE below.depth < 1000
                    )
                    SELECT \(TodoItem.selection), min(below.depth) AS depth FROM below JOIN todo ON todo.id = below.id
                    WHERE below.depth > 0 AND todo.id NOT IN (SELECT value FROM json_each(?1))
                    GROUP BY todo.id ORDER BY depth, todo.createdAt DESC, todo.seq DESC
                    """, arguments: [IDList.encode(ids)])
                return rows.compactMap(TodoItem.init(row:))
            }
        }
    }
}
