import GRDB

// MARK: - Database Access: Writes

extension SQLiteTodoRepository {
    public func create(_ payload: TodoPayload) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let key = payload.id?.key ?? makeID()
        return try await write { db in try create(db, payload, key: key, ms: ms) }
    }

    public func batch(_ operations: [BatchOperation]) async throws -> [BatchResult] {
        let ms = milliseconds(now())
        let keys = operations.map { $0.id ?? $0.payload?.id?.key ?? makeID() }
        // A list's creates are checked one by one: each must land on the list.
        let bulk = bulkCreates && list == nil
        return try await write { db in
            var results: [BatchResult] = []
            results.reserveCapacity(operations.count)
            var index = 0
            while index < operations.count {
                // A run of creates (a client pushing its new todos) is stored
                // in a few statements instead of four and a savepoint each.
                let run = bulk ? Self.createRun(in: operations, from: index) : index..<index
                if run.count >= 2 {
                    let creates = run.compactMap { index in operations[index].payload.map { ($0, keys[index]) } }
                    results += try createAll(db, creates, ms: ms)
                    index = run.upperBound
                    continue
                }
                let (operation, key) = (operations[index], keys[index])
                index += 1
                var stored: StoredTodo?
                do {
                    try db.inSavepoint {
                        stored = try apply(db, operation, key: key, ms: ms)
                        return .commit
                    }
                    results.append(BatchResult(status: operation.method == .create ? 201 : 200, todo: stored))
                } catch let error as ServerError where error.status.code < 500 {
                    results.append(BatchResult(status: error.status.code, error: error.message))
                }
            }
            if operations.contains(where: { $0.method == .delete }) { try purgeTombstones(db, at: ms) }
            return results
        }
    }

    /// One operation of a batch, inside the batch's transaction.
    private func apply(_ db: Database, _ operation: BatchOperation, key: String, ms: Int64) throws -> StoredTodo {
        switch (operation.method, operation.payload) {
        case let (.create, payload?):
            try create(db, payload, key: key, ms: ms)
        case let (.replace, payload?):
            try update(db, id: key, ifMatch: operation.ifMatch, ms: ms, newBody: Self.replacing(with: payload))
        case let (.patch, payload?):
            try update(db, id: key, ifMatch: operation.ifMatch, ms: ms, newBody: Self.patching(with: payload))
        case (.delete, _):
            try delete(db, id: key, ifMatch: operation.ifMatch, ms: ms)
        default:
            throw ServerError.badRequest("A \(operation.method.rawValue) needs a body.")
        }
    }

    /// A create, inside the caller's transaction.
    func create(_ db: Database, _ payload: TodoPayload, key: String, ms: Int64) throws -> StoredTodo {
        let idValue: any DatabaseValueConvertible & Sendable =
            switch payload.id {
            case .number(let number): number
            case .string(let string): string
            case nil: key
            }
        let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT version, deleted FROM item WHERE account = ? AND id = ?"), arguments: [account.rawValue, key])
        if let existing, existing["deleted"] as Bool == false {
            throw ServerError.conflict(id: key)
        }
        // A deleted id may be used again: its versions go on from the tombstone's,
        // so an If-Match against the old todo can never match the new one.
        let version = (existing?["version"] as Int? ?? 0) + 1
        let seq = try nextChangeSeq(db)
        let body = try String.fetchOne(
            db.cachedStatement(sql: """
                SELECT json_set(json_remove(:json, '$.version', '$.updatedAt'),
                    '$.id', :id, '$.version', :version, '$.updatedAt', \(Self.isoTime))
                """),
            arguments: ["json": payload.json, "id": idValue, "version": version, "ms": ms]
        ) ?? "{}"
        try db.cachedStatement(sql: """
                INSERT INTO item (account, id, body, version, updatedAt, changeSeq, deleted)
                VALUES (:account, :key, :body, :version, :ms, :seq, 0)
                ON CONFLICT(account, id) DO UPDATE SET body = excluded.body, version = excluded.version,
                    updatedAt = excluded.updatedAt, changeSeq = excluded.changeSeq, deleted = 0
                """)
            .execute(arguments: ["account": account.rawValue, "key": key, "body": body, "version": version, "ms": ms, "seq": seq])
        try checkStaysOnList(db, id: key)
        return StoredTodo(id: key, version: version, json: body)
    }

    public func replace(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await write { db in try update(db, id: id, ifMatch: ifMatch, ms: ms, newBody: Self.replacing(with: payload)) }
    }

    public func patch(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await write { db in try update(db, id: id, ifMatch: ifMatch, ms: ms, newBody: Self.patching(with: payload)) }
    }

    /// PUT's new body: the payload, whose id stays the stored one whatever
    /// the body says, as in json-server.
    static func replacing(with payload: TodoPayload) -> NewBody {
        { db, oldBody, version, ms in
            try String.fetchOne(
                db.cachedStatement(sql: """
                    SELECT json_set(json_remove(:json, '$.version', '$.updatedAt'),
                        '$.id', json_extract(:old, '$.id'), '$.version', :version, '$.updatedAt', \(Self.isoTime))
                    """),
                arguments: ["json": payload.json, "old": oldBody, "version": version, "ms": ms]
            )
        }
    }

    /// PATCH's new body: a shallow merge, as json-server's PATCH: each
    /// top-level field of the patch replaces the stored one whole (null
    /// included); others stay.
    static func patching(with payload: TodoPayload) -> NewBody {
        { db, oldBody, version, ms in
            try String.fetchOne(
                db.cachedStatement(sql: """
                    WITH patch(json) AS (SELECT json_remove(:json, '$.id', '$.version', '$.updatedAt'))
                    SELECT json_set(
                        (SELECT json_group_object(key, json(src -> fullkey)) FROM (
                            SELECT key, fullkey, :old AS src FROM json_each(:old)
                            WHERE key NOT IN (SELECT key FROM json_each((SELECT json FROM patch)))
                            UNION ALL
                            SELECT key, fullkey, (SELECT json FROM patch) AS src FROM json_each((SELECT json FROM patch))
                        )),
                        '$.version', :version, '$.updatedAt', \(Self.isoTime))
                    """),
                arguments: ["json": payload.json, "old": oldBody, "version": version, "ms": ms]
            )
        }
    }

    /// Computes a todo's new body from the stored one, its next version and the time.
    typealias NewBody = @Sendable (Database, _ oldBody: String, _ version: Int, _ ms: Int64) throws -> String?

    public func delete(id: String, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await write { db in
            let deleted = try delete(db, id: id, ifMatch: ifMatch, ms: ms)
            try purgeTombstones(db, at: ms)
            return deleted
        }
    }

    /// A delete, inside the caller's transaction: the todo as it was.
    func delete(_ db: Database, id: String, ifMatch: IfMatch?, ms: Int64) throws -> StoredTodo {
        let (oldBody, version) = try checkedCurrent(db, id: id, ifMatch: ifMatch)
        let seq = try nextChangeSeq(db)
        try db.cachedStatement(sql: """
                UPDATE item SET body = json_object('id', json_extract(body, '$.id'), 'version', :version,
                        'updatedAt', \(Self.isoTime), 'deleted', json('true')),
                    version = :version, updatedAt = :ms, changeSeq = :seq, deleted = 1
                WHERE account = :account AND id = :key
                """)
            .execute(arguments: ["version": version + 1, "ms": ms, "seq": seq, "account": account.rawValue, "key": id])
        return StoredTodo(id: id, version: version + 1, json: oldBody)
    }

    /// The shared steps of PUT and PATCH, inside the caller's transaction:
    /// check, compute the new body, store it.
    func update(_ db: Database, id: String, ifMatch: IfMatch?, ms: Int64, newBody: NewBody) throws -> StoredTodo {
        let (oldBody, version) = try checkedCurrent(db, id: id, ifMatch: ifMatch)
        let seq = try nextChangeSeq(db)
        guard let body = try newBody(db, oldBody, version + 1, ms) else {
            throw ServerError.storage("could not build the updated todo")
        }
        try db.cachedStatement(sql: "UPDATE item SET body = ?, version = ?, updatedAt = ?, changeSeq = ? WHERE account = ? AND id = ?")
            .execute(arguments: [body, version + 1, ms, seq, account.rawValue, id])
        try checkStaysOnList(db, id: id)
        return StoredTodo(id: id, version: version + 1, json: body)
    }

    /// Scoped to a list, throws 422 unless the todo just written is on it;
    /// the caller's transaction (or savepoint) then takes the write back.
    private func checkStaysOnList(_ db: Database, id: String) throws {
        guard let list else { return }
        let now = try String.fetchOne(db.cachedStatement(sql: "SELECT list FROM item WHERE account = ? AND id = ?"), arguments: [account.rawValue, id])
        guard now == list else { throw ShareRefusal.leavesList(list) }
    }

    /// The live todo's body and version, or 404 (as for a todo on another
    /// list, when scoped to one); 412 if `ifMatch` fails.
    private func checkedCurrent(_ db: Database, id: String, ifMatch: IfMatch?) throws -> (String, Int) {
        let sql = list == nil
            ? "SELECT body, version FROM item WHERE account = ? AND id = ? AND deleted = 0"
            : "SELECT body, version FROM item WHERE account = ? AND id = ? AND list = ?"
        guard
            let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: list.map { [account.rawValue, id, $0] } ?? [account.rawValue, id])
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
