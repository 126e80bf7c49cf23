import GRDB

// MARK: - Database Access: CalDAV resources

extension SQLiteTodoRepository {
    public func changeCounter() async throws -> Int {
        let accountKey = account.rawValue
        return try await read { db in
            guard let counter = try Int.fetchOne(db, sql: "SELECT lastChangeSeq FROM account WHERE id = ?", arguments: [accountKey]) else {
                throw ServerError.accountGone
            }
            return counter
        }
    }

    public func calendarObjects(ids: [String], maxBytes: Int) async throws -> (objects: [CalendarObject], consumed: Int) {
        let accountKey = account.rawValue
        return try await read { db in
            var objects: [CalendarObject] = []
            var bytes = 0
            let statement = try db.cachedStatement(sql: """
                SELECT item.body, item.version, calendarObject.name, calendarObject.ics, calendarObject.version, calendarObject.body FROM item
                LEFT JOIN calendarObject ON calendarObject.account = item.account AND calendarObject.id = item.id
                WHERE item.account = ? AND item.id = ? AND item.deleted = 0
                """)
            for (index, id) in ids.enumerated() {
                if let row = try Row.fetchOne(statement, arguments: [accountKey, id]) {
                    let object = CalendarObject(
                        todo: StoredTodo(id: id, version: row[1], json: row[0]), name: row[2], ics: row[3], icsVersion: row[4], icsBody: row[5]
                    )
                    bytes += object.byteCount
                    objects.append(object)
                    if bytes >= maxBytes { return (objects, index + 1) }
                }
            }
            return (objects, ids.count)
        }
    }

    public func calendarObjects(since cursor: Int?, after position: Int64?, limit: Int) async throws -> CalendarPage {
        let accountKey = account.rawValue
        let retentionDays = tombstoneRetention.components.seconds / 86_400
        return try await read { db in
            guard let feed = try Row.fetchOne(db, sql: "SELECT lastChangeSeq, purgedThrough FROM account WHERE id = ?", arguments: [accountKey]) else {
                throw ServerError.accountGone
            }
            let last: Int = feed[0]
            if let cursor, cursor < feed[1] as Int { throw ServerError.cursorTooOld(cursor, retentionDays: retentionDays) }
            if let cursor, cursor > last { throw ServerError.cursorAhead(cursor, latest: last) }
            // Live todos in creation order, or changes in feed order: both on an index.
            let (key, condition) = cursor == nil ? ("item.seq", "item.deleted = 0") : ("item.changeSeq", "item.changeSeq > \(cursor!)")
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT item.id, CASE WHEN calendarObject.version = item.version THEN '{}' ELSE item.body END,
                        item.version, item.deleted, calendarObject.name, calendarObject.ics, calendarObject.version, \(key),
                        CASE WHEN calendarObject.version = item.version THEN NULL ELSE calendarObject.body END FROM item
                    LEFT JOIN calendarObject ON calendarObject.account = item.account AND calendarObject.id = item.id
                    WHERE item.account = ? AND \(condition) AND \(key) > ? ORDER BY \(key) LIMIT ?
                    """,
                arguments: [accountKey, position ?? Int64.min, limit]
            )
            var objects: [CalendarObject] = []
            var lastPosition: Int64?
            var bytes = 0
            while bytes < CalendarPage.maxBytes, let row = try rows.next() {
                let object = CalendarObject(
                    todo: StoredTodo(id: row[0], version: row[2], json: row[1]), name: row[4], ics: row[5], icsVersion: row[6],
                    icsBody: row[8], deleted: row[3]
                )
                bytes += object.byteCount
                objects.append(object)
                lastPosition = row[7]
            }
            let full = objects.count == limit || bytes >= CalendarPage.maxBytes
            return CalendarPage(objects: objects, counter: last, next: full ? lastPosition : nil)
        }
    }

    public func calendarIDs(names: [String]) async throws -> [String: String] {
        let accountKey = account.rawValue
        return try await read { db in
            var ids: [String: String] = [:]
            let statement = try db.cachedStatement(sql: "SELECT id FROM calendarObject WHERE account = ? AND name = ?")
            for name in names {
                ids[name] = try String.fetchOne(statement, arguments: [accountKey, name])
            }
            return ids
        }
    }

    public func putCalendarObject(
        name: String, id: String, operation: BatchOperation, render: @escaping @Sendable (StoredTodo) -> String
    ) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let accountKey = account.rawValue
        return try await write { db in
            let stored: StoredTodo
            switch (operation.method, operation.payload) {
            case let (.create, payload?):
                stored = try create(db, payload, key: id, ms: ms)
            case let (.patch, payload?):
                stored = try update(db, id: id, ifMatch: operation.ifMatch, ms: ms, newBody: Self.patching(with: payload))
            default:
                throw ServerError.badRequest("A CalDAV write is a create or a patch.")
            }
            // A resource of this todo's under another name, or another todo's
            // under this name, can only be a deleted one's: the caller checked.
            try db.execute(sql: "DELETE FROM calendarObject WHERE account = ? AND (name = ? OR id = ?)", arguments: [accountKey, name, id])
            try db.execute(
                sql: "INSERT INTO calendarObject (account, name, id, ics, version, body) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [accountKey, name, id, render(stored), stored.version, stored.json]
            )
            return stored
        }
    }
}
