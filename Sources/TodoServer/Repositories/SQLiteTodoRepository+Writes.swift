import GRDB

// MARK: - Database Access: Writes

extension SQLiteTodoRepository {
    public func create(_ payload: TodoPayload) async throws -> StoredTodo {
        let key = payload.id?.key ?? makeID()
        let idValue: any DatabaseValueConvertible & Sendable =
            switch payload.id {
            case .number(let number): number
            case .string(let string): string
            case nil: key
            }
        let ms = milliseconds(now())
        return try await write { db in
            let existing = try Row.fetchOne(db, sql: "SELECT version, deleted FROM item WHERE id = ?", arguments: [key])
            if let existing, existing["deleted"] as Bool == false {
                throw ServerError.conflict(id: key)
            }
            // A deleted id may be used again: its versions go on from the tombstone's,
            // so an If-Match against the old todo can never match the new one.
            let version = (existing?["version"] as Int? ?? 0) + 1
            let seq = try nextChangeSeq(db)
            let body = try String.fetchOne(
                db,
                sql: """
                    SELECT json_set(json_remove(:json, '$.version', '$.updatedAt'),
                        '$.id', :id, '$.version', :version, '$.updatedAt', \(Self.isoTime))
                    """,
                arguments: ["json": payload.json, "id": idValue, "version": version, "ms": ms]
            ) ?? "{}"
            try db.execute(
                sql: """
                    INSERT INTO item (id, body, version, updatedAt, changeSeq, deleted)
                    VALUES (:key, :body, :version, :ms, :seq, 0)
                    ON CONFLICT(id) DO UPDATE SET body = excluded.body, version = excluded.version,
                        updatedAt = excluded.updatedAt, changeSeq = excluded.changeSeq, deleted = 0
                    """,
                arguments: ["key": key, "body": body, "version": version, "ms": ms, "seq": seq]
            )
            return StoredTodo(id: key, version: version, json: body)
        }
    }

    public func replace(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        try await update(id: id, ifMatch: ifMatch) { db, oldBody, version, ms in
            // The id stays the stored one whatever the body says, as in json-server.
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_set(json_remove(:json, '$.version', '$.updatedAt'),
                        '$.id', json_extract(:old, '$.id'), '$.version', :version, '$.updatedAt', \(Self.isoTime))
                    """,
                arguments: ["json": payload.json, "old": oldBody, "version": version, "ms": ms]
            )
        }
    }

    public func patch(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        try await update(id: id, ifMatch: ifMatch) { db, oldBody, version, ms in
            // A shallow merge, as json-server's PATCH: each top-level field of the
            // patch replaces the stored one whole (null included); others stay.
            try String.fetchOne(
                db,
                sql: """
                    WITH patch(json) AS (SELECT json_remove(:json, '$.id', '$.version', '$.updatedAt'))
                    SELECT json_set(
                        (SELECT json_group_object(key, json(src -> fullkey)) FROM (
                            SELECT key, fullkey, :old AS src FROM json_each(:old)
                            WHERE key NOT IN (SELECT key FROM json_each((SELECT json FROM patch)))
                            UNION ALL
                            SELECT key, fullkey, (SELECT json FROM patch) AS src FROM json_each((SELECT json FROM patch))
                        )),
                        '$.version', :version, '$.updatedAt', \(Self.isoTime))
                    """,
                arguments: ["json": payload.json, "old": oldBody, "version": version, "ms": ms]
            )
        }
    }

    public func delete(id: String, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await write { db in
            let (oldBody, version) = try checkedCurrent(db, id: id, ifMatch: ifMatch)
            let seq = try nextChangeSeq(db)
            try db.execute(
                sql: """
                    UPDATE item SET body = json_object('id', json_extract(body, '$.id'), 'version', :version,
                            'updatedAt', \(Self.isoTime), 'deleted', json('true')),
                        version = :version, updatedAt = :ms, changeSeq = :seq, deleted = 1
                    WHERE id = :key
                    """,
                arguments: ["version": version + 1, "ms": ms, "seq": seq, "key": id]
            )
            try purgeTombstones(db, at: ms)
            return StoredTodo(id: id, version: version + 1, json: oldBody)
        }
    }

    /// The shared steps of PUT and PATCH: check, compute the new body, store it.
    private func update(
        id: String,
        ifMatch: IfMatch?,
        newBody: @escaping @Sendable (Database, _ oldBody: String, _ version: Int, _ ms: Int64) throws -> String?
    ) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await write { db in
            let (oldBody, version) = try checkedCurrent(db, id: id, ifMatch: ifMatch)
            let seq = try nextChangeSeq(db)
            guard let body = try newBody(db, oldBody, version + 1, ms) else {
                throw ServerError.storage("could not build the updated todo")
            }
            try db.execute(
                sql: "UPDATE item SET body = ?, version = ?, updatedAt = ?, changeSeq = ? WHERE id = ?",
                arguments: [body, version + 1, ms, seq, id]
            )
            return StoredTodo(id: id, version: version + 1, json: body)
        }
    }

    /// The live todo's body and version, or 404; 412 if `ifMatch` fails.
    private func checkedCurrent(_ db: Database, id: String, ifMatch: IfMatch?) throws -> (String, Int) {
        guard
            let row = try Row.fetchOne(db, sql: "SELECT body, version FROM item WHERE id = ? AND deleted = 0", arguments: [id])
        else {
            throw ServerError.notFound(id: id)
        }
        let version: Int = row["version"]
        if let ifMatch, !ifMatch.matches(version: version) {
            throw ServerError.preconditionFailed(id: id, currentVersion: version)
        }
        return (row["body"], version)
    }
}
