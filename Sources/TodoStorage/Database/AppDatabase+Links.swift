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

    /// Whether any todo has a parent or a blocker: two looks at partial indexes.
    public func hasLinkedTodos() throws -> Bool {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM todo WHERE parent IS NOT NULL) OR EXISTS (SELECT 1 FROM todo WHERE blockedBy IS NOT NULL)
                    """) ?? false
            }
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

    /// Of the todos `ids` names, those `request` lists (its limit aside):
    /// each looked up by its id, so the cost follows how many are named, not
    /// how many the request lists.
    public func listedIDs(_ request: TodoRequest, among ids: [UUID]) throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        var unlimited = request
        unlimited.limit = nil
        let query = PreparedQuery(request.query)
        return try StorageError.wrap(path: path) {
            // Reentrant: `todo list` asks while it reads its rows.
            try dbWriter.unsafeReentrantRead { db in
                var listed = Set<UUID>()
                for part in Self.listSQL(unlimited, selection: "todo.id, todo.text", among: IDList.encode(ids)) {
                    // The same text whatever the ids: prepared once for many calls.
                    let rows = try Row.fetchCursor(db.cachedStatement(sql: part.sql), arguments: part.arguments)
                    while let row = try rows.next() {
                        if !request.query.isEmpty {
                            let text: String = row[1]
                            guard query.matches(text) else { continue }
                        }
                        if let id = UUID(parsing: row[0]) { listed.insert(id) }
                    }
                }
                return listed
            }
        }
    }

    /// Of the todos `ids` names, the pending ones, with their short IDs.
    /// (Each of these reads goes from the ids to the rows, CROSS JOIN: left
    /// to itself, SQLite walked every pending todo and probed the ids.)
    public func pendingShortIDs(among ids: [UUID]) throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try StorageError.wrap(path: path) {
            // Reentrant: `todo list` asks while it reads its rows.
            try dbWriter.unsafeReentrantRead { db in
                var found: [UUID: String] = [:]
                let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT todo.id, todo.idPrefixLength FROM json_each(?) AS wanted CROSS JOIN todo ON todo.id = wanted.value
                    WHERE todo.isDone = 0
                    """), arguments: [IDList.encode(ids)])
                while let row = try rows.next() {
                    let text: String = row[0]
                    if let id = UUID(parsing: text) { found[id] = String(text.prefix(row[1] as Int)) }
                }
                return found
            }
        }
    }

    /// Of the parents `items` name, those that no longer exist
    /// (`TodoItem.showing(absentParents:)`).
    public func absentParents(of items: [TodoItem]) throws -> Set<UUID> {
        let named = Set(items.compactMap(\.parent))
        guard !named.isEmpty else { return [] }
        return named.subtracting(try listedTodos(withIDs: Array(named)).map(\.item.id))
    }

    /// Every parent a todo names that no longer exists: for a whole list or
    /// an export, read once through the partial index of the todos that have one.
    public func absentParents() throws -> Set<UUID> {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                Set(try String.fetchAll(db, sql: """
                    SELECT DISTINCT child.parent FROM todo AS child
                    WHERE child.parent IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todo WHERE todo.id = child.parent)
                    """).compactMap(UUID.init(parsing:)))
            }
        }
    }

    /// The todos `ids` names that exist, with their short IDs' lengths.
    public func listedTodos(withIDs ids: [UUID]) throws -> [ListedTodo] {
        guard !ids.isEmpty else { return [] }
        return try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(TodoItem.selection) FROM json_each(?) AS wanted CROSS JOIN todo ON todo.id = wanted.value
                    ORDER BY todo.createdAt DESC, todo.seq DESC
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
