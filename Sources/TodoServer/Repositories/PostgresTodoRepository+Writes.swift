import Foundation
import PostgresNIO

// MARK: - Database Access: Writes

// Every write runs in one transaction that first takes its account's next
// change number (`nextChangeSeq`), and with it the account row's lock: the
// account's writers run one at a time from there to their commit, each
// statement after the lock seeing every write committed before it.
extension PostgresTodoRepository {
    public func create(_ payload: TodoPayload) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let key = payload.id?.key ?? makeID()
        return try await database.transaction { connection in try await create(connection, payload, key: key, ms: ms) }
    }

    public func replace(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await database.transaction { connection in
            try await update(connection, id: id, ifMatch: ifMatch, ms: ms, change: .replace(payload))
        }
    }

    public func patch(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await database.transaction { connection in
            try await update(connection, id: id, ifMatch: ifMatch, ms: ms, change: .patch(payload))
        }
    }

    public func delete(id: String, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await database.transaction { connection in
            let deleted = try await delete(connection, id: id, ifMatch: ifMatch, ms: ms)
            try await purgeTombstones(connection, at: ms)
            return deleted
        }
    }

    public func batch(_ operations: [BatchOperation]) async throws -> [BatchResult] {
        let ms = milliseconds(now())
        let keys = operations.map { $0.id ?? $0.payload?.id?.key ?? makeID() }
        let account = account.rawValue
        return try await database.transaction { connection in
            // Held to the commit, whatever savepoints roll back below.
            try await connection.query("SELECT 1 FROM account WHERE id = \(account) FOR UPDATE", logger: database.logger)
            var results: [BatchResult] = []
            results.reserveCapacity(operations.count)
            for (operation, key) in zip(operations, keys) {
                try await connection.query("SAVEPOINT operation", logger: database.logger)
                do {
                    let stored = try await apply(connection, operation, key: key, ms: ms)
                    try await connection.query("RELEASE SAVEPOINT operation", logger: database.logger)
                    results.append(BatchResult(status: operation.method == .create ? 201 : 200, todo: stored))
                } catch let error as ServerError where error.status.code < 500 {
                    try await connection.query("ROLLBACK TO SAVEPOINT operation", logger: database.logger)
                    results.append(BatchResult(status: error.status.code, error: error.message))
                }
            }
            if operations.contains(where: { $0.method == .delete }) { try await purgeTombstones(connection, at: ms) }
            return results
        }
    }

    /// One operation of a batch, inside the batch's transaction.
    private func apply(_ connection: PostgresConnection, _ operation: BatchOperation, key: String, ms: Int64) async throws -> StoredTodo {
        switch (operation.method, operation.payload) {
        case let (.create, payload?):
            try await create(connection, payload, key: key, ms: ms)
        case let (.replace, payload?):
            try await update(connection, id: key, ifMatch: operation.ifMatch, ms: ms, change: .replace(payload))
        case let (.patch, payload?):
            try await update(connection, id: key, ifMatch: operation.ifMatch, ms: ms, change: .patch(payload))
        case (.delete, _):
            try await delete(connection, id: key, ifMatch: operation.ifMatch, ms: ms)
        default:
            throw ServerError.badRequest("A \(operation.method.rawValue) needs a body.")
        }
    }

    /// A create, inside the caller's transaction.
    func create(_ connection: PostgresConnection, _ payload: TodoPayload, key: String, ms: Int64) async throws -> StoredTodo {
        let seq = try await nextChangeSeq(connection)
        let account = account.rawValue
        var existing: (version: Int, deleted: Bool)?
        for try await row in try await connection.query(
            "SELECT version, deleted FROM item WHERE account = \(account) AND id = \(key)",
            logger: database.logger
        ).decode((Int, Bool).self) {
            existing = row
        }
        if let existing, !existing.deleted {
            throw ServerError.conflict(id: key)
        }
        // A deleted id may be used again: its versions go on from the tombstone's,
        // so an If-Match against the old todo can never match the new one.
        let version = Int64((existing?.version ?? 0) + 1)
        let idJSON = Self.idJSON(payload.id ?? .string(key))
        let rows = try await connection.query(
            """
            INSERT INTO item AS i (account, id, body, version, updated_at, change_seq, deleted)
            VALUES (\(account), \(key),
                (\(payload.json)::jsonb - 'version' - 'updatedAt')
                    || jsonb_build_object('id', \(idJSON)::jsonb,
                        'version', \(version), 'updatedAt', \(Self.isoTime(ms))::text),
                \(version), \(ms), \(seq), false)
            ON CONFLICT (account, id) DO UPDATE SET body = excluded.body, version = excluded.version,
                updated_at = excluded.updated_at, change_seq = excluded.change_seq, deleted = false
            RETURNING body::text
            """,
            logger: database.logger
        )
        for try await body in rows.decode(String.self) {
            return StoredTodo(id: key, version: Int(version), json: body)
        }
        throw ServerError.storage("the created todo was not returned")
    }

    /// What a PUT or PATCH does to the stored object.
    enum Change {
        /// PUT: the payload's fields; the id stays the stored one whatever the body says, as in json-server.
        case replace(TodoPayload)
        /// PATCH: a shallow merge, as json-server's: each top-level field of
        /// the patch replaces the stored one whole (null included); others stay.
        case patch(TodoPayload)
    }

    /// The shared steps of PUT and PATCH, inside the caller's transaction:
    /// a compare-and-set of the new object on the version `ifMatch` names.
    func update(_ connection: PostgresConnection, id: String, ifMatch: IfMatch?, ms: Int64, change: Change) async throws -> StoredTodo {
        let seq = try await nextChangeSeq(connection)
        let (anyVersion, versions) = Self.condition(ifMatch)
        let account = account.rawValue
        let time = Self.isoTime(ms)
        let query: PostgresQuery =
            switch change {
            case .replace(let payload):
                """
                UPDATE item SET body = (\(payload.json)::jsonb - 'version' - 'updatedAt' - 'id')
                        || jsonb_build_object('id', body -> 'id', 'version', version + 1, 'updatedAt', \(time)::text),
                    version = version + 1, updated_at = \(ms), change_seq = \(seq)
                WHERE account = \(account) AND id = \(id) AND NOT deleted AND (\(anyVersion) OR version = ANY(\(versions)))
                RETURNING body::text, version
                """
            case .patch(let payload):
                """
                UPDATE item SET body = body || (\(payload.json)::jsonb - 'id' - 'version' - 'updatedAt')
                        || jsonb_build_object('version', version + 1, 'updatedAt', \(time)::text),
                    version = version + 1, updated_at = \(ms), change_seq = \(seq)
                WHERE account = \(account) AND id = \(id) AND NOT deleted AND (\(anyVersion) OR version = ANY(\(versions)))
                RETURNING body::text, version
                """
            }
        for try await (body, version) in try await connection.query(query, logger: database.logger).decode((String, Int).self) {
            return StoredTodo(id: id, version: version, json: body)
        }
        throw try await whyNotChanged(connection, id: id)
    }

    /// A delete, inside the caller's transaction: the todo as it was.
    func delete(_ connection: PostgresConnection, id: String, ifMatch: IfMatch?, ms: Int64) async throws -> StoredTodo {
        let seq = try await nextChangeSeq(connection)
        let (anyVersion, versions) = Self.condition(ifMatch)
        let account = account.rawValue
        let rows = try await connection.query(
            """
            UPDATE item AS i SET body = jsonb_build_object('id', i.body -> 'id', 'version', i.version + 1,
                    'updatedAt', \(Self.isoTime(ms))::text, 'deleted', true),
                version = i.version + 1, updated_at = \(ms), change_seq = \(seq), deleted = true
            FROM item AS old
            WHERE i.account = \(account) AND i.id = \(id) AND NOT i.deleted AND (\(anyVersion) OR i.version = ANY(\(versions)))
                AND old.account = i.account AND old.id = i.id
            RETURNING old.body::text, i.version
            """,
            logger: database.logger
        )
        for try await (oldBody, version) in rows.decode((String, Int).self) {
            return StoredTodo(id: id, version: version, json: oldBody)
        }
        throw try await whyNotChanged(connection, id: id)
    }

    /// The id as a JSON value: a number stays a number.
    private static func idJSON(_ id: TodoID) -> String {
        switch id {
        case .number(let number):
            return String(number)
        case .string(let string):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return (try? encoder.encode(string)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
    }

    /// `If-Match` as SQL: any version (no header, or `*`), or one of these.
    private static func condition(_ ifMatch: IfMatch?) -> (anyVersion: Bool, versions: [Int64]) {
        switch ifMatch {
        case nil, .any?: (true, [])
        case .versions(let versions)?: (false, versions.map(Int64.init))
        }
    }

    /// Why a compare-and-set changed nothing: 404, or 412 with the current version.
    private func whyNotChanged(_ connection: PostgresConnection, id: String) async throws -> ServerError {
        for try await version in try await connection.query(
            "SELECT version FROM item WHERE account = \(account.rawValue) AND id = \(id) AND NOT deleted",
            logger: database.logger
        ).decode(Int.self) {
            return ServerError.preconditionFailed(id: id, currentVersion: version)
        }
        return ServerError.notFound(id: id)
    }
}
