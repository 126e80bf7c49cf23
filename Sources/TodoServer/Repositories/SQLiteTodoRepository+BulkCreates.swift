import GRDB

// MARK: - Database Access: a batch's creates in bulk
// A client pushing its new todos sends runs of creates. One at a time, each
// costs a savepoint and four statements (about 45 µs); in bulk, a run costs
// one lookup of its ids and one bump of the account's counter, then one
// prepared insert a todo. The results are those of the one-at-a-time path, which
// `BulkCreateEquivalenceTests` checks over random batches.

extension SQLiteTodoRepository {
    /// The run of creates that starts at `start` (empty if the operation
    /// there is not a create).
    static func createRun(in operations: [BatchOperation], from start: Int) -> Range<Int> {
        var end = start
        while end < operations.count, operations[end].method == .create, operations[end].payload != nil {
            end += 1
        }
        return start..<end
    }

    /// Creates each todo as `create` would, one after the other, inside the
    /// caller's transaction: a live todo with the same id, or an earlier
    /// create of the run with it, is a 409; a tombstone's id is used again,
    /// its versions going on.
    func createAll(_ db: Database, _ creates: [(payload: TodoPayload, key: String)], ms: Int64) throws -> [BatchResult] {
        let existing = try existingVersions(db, keys: creates.map(\.key))
        // Every place is set below: a 409, or the todo created.
        var results = [BatchResult](repeating: BatchResult(status: 0), count: creates.count)
        var rows: [(index: Int, version: Int)] = []
        rows.reserveCapacity(creates.count)
        var taken = Set<String>()
        for (index, create) in creates.enumerated() {
            let old = existing[create.key]
            guard old?.deleted ?? true, taken.insert(create.key).inserted else {
                let conflict = ServerError.conflict(id: create.key)
                results[index] = BatchResult(status: conflict.status.code, error: conflict.message)
                continue
            }
            rows.append((index, (old?.version ?? 0) + 1))
        }
        guard !rows.isEmpty else { return results }
        let lastSeq = try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE account SET lastChangeSeq = lastChangeSeq + ? WHERE id = ? RETURNING lastChangeSeq"),
            arguments: [rows.count, account.rawValue]
        )
        guard let lastSeq else { throw ServerError.accountGone }
        let firstSeq = lastSeq - Int64(rows.count) + 1
        let time = try String.fetchOne(db.cachedStatement(sql: "SELECT \(Self.isoTime)"), arguments: ["ms": ms]) ?? ""
        // One prepared insert, stepped once a todo; then their bodies as
        // stored, in one read of their change numbers (a RETURNING clause
        // costs a temporary table a row).
        let insert = try db.cachedStatement(sql: """
            INSERT INTO item (account, id, body, version, updatedAt, changeSeq, deleted)
            VALUES (?1, ?2, json_set(json_remove(?3, '$.version', '$.updatedAt'),
                '$.id', ?4, '$.version', ?5, '$.updatedAt', ?6), ?5, ?7, ?8, 0)
            ON CONFLICT(account, id) DO UPDATE SET body = excluded.body, version = excluded.version,
                updatedAt = excluded.updatedAt, changeSeq = excluded.changeSeq, deleted = 0
            """)
        for (offset, row) in rows.enumerated() {
            let (payload, key) = creates[row.index]
            let idValue: any DatabaseValueConvertible =
                switch payload.id {
                case .number(let number): number
                case .string(let string): string
                case nil: key
                }
            try insert.execute(arguments: [account.rawValue, key, payload.json, idValue, row.version, time, ms, firstSeq + Int64(offset)])
        }
        var bodies = [String?](repeating: nil, count: rows.count)
        let stored = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT changeSeq, body FROM item WHERE account = ? AND changeSeq BETWEEN ? AND ?"),
            arguments: [account.rawValue, firstSeq, lastSeq]
        )
        while let row = try stored.next() {
            bodies[Int((row[0] as Int64) - firstSeq)] = row[1]
        }
        for (offset, row) in rows.enumerated() {
            guard let body = bodies[offset] else { throw ServerError.storage("a created todo was not stored") }
            results[row.index] = BatchResult(status: 201, todo: StoredTodo(id: creates[row.index].key, version: row.version, json: body))
        }
        return results
    }

    /// The version and state of each of these ids stored in the account:
    /// one statement, as a batch's at most 1,000 ids are well under SQLite's
    /// limit of 32,766 arguments.
    private func existingVersions(_ db: Database, keys: [String]) throws -> [String: (version: Int, deleted: Bool)] {
        var existing: [String: (version: Int, deleted: Bool)] = [:]
        var arguments: [(any DatabaseValueConvertible)?] = [account.rawValue]
        arguments += keys.map { $0 }
        let cursor = try Row.fetchCursor(
            db,
            sql: "SELECT id, version, deleted FROM item WHERE account = ? AND id IN (\(databaseQuestionMarks(count: keys.count)))",
            arguments: StatementArguments(arguments)
        )
        while let row = try cursor.next() {
            existing[row[0]] = (row[1], row[2])
        }
        return existing
    }
}
