import PostgresNIO

// MARK: - Database Access: CalDAV resources

extension PostgresTodoRepository {
    public func changeCounter() async throws -> Int {
        let account = account.rawValue
        return try await database.withConnection { connection in
            for try await counter in try await connection.query("SELECT last_change_seq FROM account WHERE id = \(account)", logger: database.logger)
                .decode(Int.self)
            {
                return counter
            }
            throw ServerError.accountGone
        }
    }

    public func calendarObjects(ids: [String], maxBytes: Int) async throws -> (objects: [CalendarObject], consumed: Int) {
        guard !ids.isEmpty else { return ([], 0) }
        let account = account.rawValue
        return try await database.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT i.id, i.body::text, i.version, c.name, c.ics, c.version, c.body FROM item AS i
                LEFT JOIN calendar_object AS c ON c.account = i.account AND c.id = i.id
                WHERE i.account = \(account) AND i.id = ANY(\(ids)) AND NOT i.deleted
                ORDER BY array_position(\(ids), i.id)
                """,
                logger: database.logger
            )
            var objects: [CalendarObject] = []
            var bytes = 0
            var consumed = ids.count
            // In the order of `ids`: past the budget the rest are left for the next call.
            for try await (id, body, version, name, ics, icsVersion, icsBody)
                in rows.decode((String, String, Int, String?, String?, Int?, String?).self)
            {
                guard bytes < maxBytes else { continue }
                let object = CalendarObject(
                    todo: StoredTodo(id: id, version: version, json: body), name: name, ics: ics, icsVersion: icsVersion, icsBody: icsBody
                )
                bytes += object.byteCount
                objects.append(object)
                if bytes >= maxBytes { consumed = (ids.firstIndex(of: id) ?? ids.count - 1) + 1 }
            }
            return (objects, consumed)
        }
    }

    public func calendarObjects(since cursor: Int?, after position: Int64?, limit: Int) async throws -> CalendarPage {
        let retentionDays = tombstoneRetention.components.seconds / 86_400
        let account = account.rawValue
        let after = position ?? Int64.min
        return try await database.withConnection { connection in
            // One statement, one snapshot: the counter and the todos agree.
            let rows: PostgresRowSequence
            if let cursor {
                rows = try await connection.query(
                    """
                    SELECT a.last_change_seq, a.purged_through, i.id, CASE WHEN c.version = i.version THEN '{}' ELSE i.body::text END, i.version, i.deleted, c.name, c.ics, c.version, i.change_seq,
                        CASE WHEN c.version = i.version THEN NULL ELSE c.body END
                    FROM account AS a
                    LEFT JOIN LATERAL (
                        SELECT * FROM item WHERE account = a.id AND change_seq > \(Int64(cursor)) AND change_seq > \(after)
                        ORDER BY change_seq LIMIT \(Int64(limit))
                    ) AS i ON true
                    LEFT JOIN calendar_object AS c ON c.account = i.account AND c.id = i.id
                    WHERE a.id = \(account)
                    ORDER BY i.change_seq
                    """,
                    logger: database.logger
                )
            } else {
                rows = try await connection.query(
                    """
                    SELECT a.last_change_seq, a.purged_through, i.id, CASE WHEN c.version = i.version THEN '{}' ELSE i.body::text END, i.version, i.deleted, c.name, c.ics, c.version, i.seq,
                        CASE WHEN c.version = i.version THEN NULL ELSE c.body END
                    FROM account AS a
                    LEFT JOIN LATERAL (
                        SELECT * FROM item WHERE account = a.id AND NOT deleted AND seq > \(after) ORDER BY seq LIMIT \(Int64(limit))
                    ) AS i ON true
                    LEFT JOIN calendar_object AS c ON c.account = i.account AND c.id = i.id
                    WHERE a.id = \(account)
                    ORDER BY i.seq
                    """,
                    logger: database.logger
                )
            }
            var counter: Int?
            var purged = 0
            var objects: [CalendarObject] = []
            var lastPosition: Int64?
            var bytes = 0
            for try await (last, purgedThrough, id, body, version, deleted, name, ics, icsVersion, key, icsBody)
                in rows.decode((Int, Int, String?, String?, Int?, Bool?, String?, String?, Int?, Int64?, String?).self)
            {
                counter = last
                purged = purgedThrough
                // Past the page's budget of bytes the rest are left for the next page.
                guard bytes < CalendarPage.maxBytes, let id, let body, let version else { continue }
                let object = CalendarObject(
                    todo: StoredTodo(id: id, version: version, json: body), name: name, ics: ics, icsVersion: icsVersion, icsBody: icsBody,
                    deleted: deleted ?? false
                )
                bytes += object.byteCount
                objects.append(object)
                lastPosition = key
            }
            guard let counter else { throw ServerError.accountGone }
            if let cursor, cursor < purged { throw ServerError.cursorTooOld(cursor, retentionDays: retentionDays) }
            if let cursor, cursor > counter { throw ServerError.cursorAhead(cursor, latest: counter) }
            let full = objects.count == limit || bytes >= CalendarPage.maxBytes
            return CalendarPage(objects: objects, counter: counter, next: full ? lastPosition : nil)
        }
    }

    public func calendarIDs(names: [String]) async throws -> [String: String] {
        guard !names.isEmpty else { return [:] }
        let account = account.rawValue
        return try await database.withConnection { connection in
            let rows = try await connection.query(
                "SELECT name, id FROM calendar_object WHERE account = \(account) AND name = ANY(\(names))",
                logger: database.logger
            )
            var ids: [String: String] = [:]
            for try await (name, id) in rows.decode((String, String).self) { ids[name] = id }
            return ids
        }
    }

    public func putCalendarObject(
        name: String, id: String, operation: BatchOperation, render: @escaping @Sendable (StoredTodo) -> String
    ) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let account = account.rawValue
        return try await database.transaction { connection in
            let stored: StoredTodo
            switch (operation.method, operation.payload) {
            case let (.create, payload?):
                stored = try await create(connection, payload, key: id, ms: ms)
            case let (.patch, payload?):
                stored = try await update(connection, PatchTodo.self, id: id, ifMatch: operation.ifMatch, payload: payload, ms: ms)
            default:
                throw ServerError.badRequest("A CalDAV write is a create or a patch.")
            }
            // A resource of this todo's under another name, or another todo's
            // under this name, can only be a deleted one's: the caller checked.
            try await connection.query(
                "DELETE FROM calendar_object WHERE account = \(account) AND (name = \(name) OR id = \(id))", logger: database.logger
            )
            try await connection.query(
                """
                INSERT INTO calendar_object (account, name, id, ics, version, body)
                VALUES (\(account), \(name), \(id), \(render(stored)), \(stored.version), \(stored.json))
                """,
                logger: database.logger
            )
            return stored
        }
    }
}
