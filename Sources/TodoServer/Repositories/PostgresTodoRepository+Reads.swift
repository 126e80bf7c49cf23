import PostgresNIO

// MARK: - Database Access: Reads

// Each read is one statement, which PostgreSQL runs on one snapshot.
extension PostgresTodoRepository {
    public func checkHealth() async throws {
        do {
            try await database.withConnection { connection in
                _ = try await connection.query("SELECT 1 FROM account LIMIT 1", logger: database.logger)
            }
        } catch let error as ServerError {
            throw ServerError(.serviceUnavailable, "The database does not answer: \(error.message)")
        }
    }

    public func get(id: String) async throws -> StoredTodo? {
        if let list {
            return try await database.rows(ReadListTodo(account: account, id: id, list: list)).first.map { StoredTodo(id: id, version: $0.1, json: $0.0) }
        }
        return try await database.rows(ReadTodo(account: account, id: id)).first.map { StoredTodo(id: id, version: $0.1, json: $0.0) }
    }

    public func list(_ query: TodoQuery) async throws -> TodoList {
        var binds = PostgresBindings()
        let condition = Self.condition(for: query, account: account, list: list, binds: &binds)
        let order = Self.ordering(for: query.sort, binds: &binds)
        let page: String
        switch query.paging {
        case .all:
            page = ""
        case .limit(let limit):
            binds.append(Int64(limit))
            page = "LIMIT $\(binds.count)"
        case .page(let number, let size, _):
            binds.append(Int64(size))
            binds.append(Int64(number - 1) * Int64(size))
            page = "LIMIT $\(binds.count - 1) OFFSET $\(binds.count)"
        }
        let total = query.paging == .all ? "NULL::bigint" : "(SELECT count(*) FROM item WHERE \(condition))"
        binds.append(account.rawValue)
        // The array is built by PostgreSQL from the stored objects: none is decoded here.
        let sql = """
            SELECT (SELECT last_change_seq FROM account WHERE id = $\(binds.count)), \(total), p.n, p.json
            FROM (
                SELECT count(*) AS n, '[' || coalesce(string_agg(b, ',' ORDER BY ord), '') || ']' AS json
                FROM (SELECT body::text AS b, row_number() OVER (ORDER BY \(order)) AS ord
                      FROM item WHERE \(condition) ORDER BY \(order) \(page)) AS selected
            ) AS p
            """
        return try await database.withConnection { [binds] connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: database.logger)
            for try await (cursor, total, count, json) in rows.decode((Int?, Int?, Int, String).self) {
                return TodoList(json: json, total: total ?? count, cursor: cursor ?? 0)
            }
            return TodoList(json: "[]", total: 0, cursor: 0)
        }
    }

    public func changes(since cursor: Int, limit: Int?) async throws -> ChangeFeed {
        let retentionDays = tombstoneRetention.components.seconds / 86_400
        let account = account.rawValue
        let list = list
        let rows = try await database.withConnection { connection in
            let rows = try await connection.query(
                list == nil ? """
                SELECT a.last_change_seq, a.purged_through, i.body::text, i.deleted, i.change_seq
                FROM account AS a LEFT JOIN LATERAL (
                    SELECT body, deleted, change_seq FROM item
                    WHERE account = a.id AND change_seq > \(Int64(cursor)) ORDER BY change_seq LIMIT \(limit.map(Int64.init))
                ) AS i ON true
                WHERE a.id = \(account)
                ORDER BY i.change_seq
                """ : """
                SELECT a.last_change_seq, a.purged_through, i.body::text, i.deleted, i.change_seq
                FROM account AS a LEFT JOIN LATERAL (
                    -- A list's feed: its todos changed after the cursor, and those
                    -- that left it since, each reported as deleted with its id alone.
                    SELECT body, false AS deleted, change_seq FROM item
                    WHERE account = a.id AND list = \(list) AND change_seq > \(Int64(cursor))
                    UNION ALL
                    SELECT jsonb_build_object('id', t.body -> 'id', 'deleted', true), true, d.change_seq
                    FROM list_departure AS d JOIN item AS t ON t.account = d.account AND t.id = d.id
                    WHERE d.account = a.id AND d.list = \(list) AND d.change_seq > \(Int64(cursor))
                    ORDER BY change_seq LIMIT \(limit.map(Int64.init))
                ) AS i ON true
                WHERE a.id = \(account)
                ORDER BY i.change_seq
                """,
                logger: database.logger
            )
            var collected: [(last: Int, purged: Int, body: String?, deleted: Bool?, seq: Int?)] = []
            for try await row in rows.decode((Int, Int, String?, Bool?, Int?).self) {
                collected.append(row)
            }
            return collected
        }
        guard let first = rows.first else { throw ServerError.accountGone }
        let (last, purged) = (first.last, first.purged)
        if cursor < purged {
            throw ServerError.cursorTooOld(cursor, retentionDays: retentionDays)
        }
        if cursor > last {
            throw ServerError.cursorAhead(cursor, latest: last)
        }
        var items: [String] = []
        var deleted: [String] = []
        var lastSeen = last
        var count = 0
        for row in rows {
            guard let body = row.body, let seq = row.seq else { continue }
            if row.deleted == true { deleted.append(body) } else { items.append(body) }
            lastSeen = seq
            count += 1
        }
        let hasMore = limit != nil && count == limit && lastSeen < last
        return ChangeFeed(
            itemsJSON: "[" + items.joined(separator: ",") + "]",
            deletedJSON: "[" + deleted.joined(separator: ",") + "]",
            cursor: hasMore ? lastSeen : last,
            hasMore: hasMore
        )
    }
}

/// `GET /todos/:id`: the live todo's object and version.
struct ReadTodo: PostgresPreparedStatement {
    static let sql = "SELECT body::text, version FROM item WHERE account = $1 AND id = $2 AND NOT deleted"
    typealias Row = (String, Int)
    let account: AccountID
    let id: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(account.rawValue)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// `GET /lists/OWNER/LIST/todos/:id`: as `ReadTodo`, for a todo on the list only.
struct ReadListTodo: PostgresPreparedStatement {
    static let sql = "SELECT body::text, version FROM item WHERE account = $1 AND id = $2 AND list = $3"
    typealias Row = (String, Int)
    let account: AccountID
    let id: String
    let list: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(account.rawValue)
        bindings.append(id)
        bindings.append(list)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

// MARK: - Query building

extension PostgresTodoRepository {
    /// The WHERE clause for a query's filters and search; its values go to `binds`.
    static func condition(for query: TodoQuery, account: AccountID, list: String? = nil, binds: inout PostgresBindings) -> String {
        binds.append(account.rawValue)
        var clauses = ["account = $\(binds.count)", "NOT deleted"]
        if let list {
            binds.append(list)
            clauses.append("list = $\(binds.count)")
        }
        for filter in query.filters {
            binds.append(filter.values)
            let values = "$\(binds.count)::text[]"
            if filter.field == "id" {
                clauses.append("id = ANY(\(values))")
            } else {
                // A value matches a field's string form: `true`, `3`, or the string itself.
                binds.append(filter.field)
                let field = "$\(binds.count)::text"
                clauses.append(
                    "(CASE jsonb_typeof(body -> \(field)) WHEN 'string' THEN body ->> \(field) ELSE (body -> \(field))::text END) = ANY(\(values))"
                )
            }
        }
        if let search = query.search {
            binds.append(search)
            // Lowercased as Swift lowercases the query: ICU's rules, whatever the database's locale.
            clauses.append(
                """
                EXISTS (SELECT 1 FROM jsonb_each(body) AS field WHERE jsonb_typeof(field.value) = 'string'
                    AND field.key <> 'updatedAt' AND strpos(lower((field.value #>> '{}') COLLATE "und-x-icu"), $\(binds.count)) > 0)
                """
            )
        }
        return clauses.joined(separator: " AND ")
    }

    /// ORDER BY terms: each sort field, then creation order. Values compare as
    /// SQLite compares what `->>` gives: missing and null first, then numbers
    /// and booleans (as 1 and 0) by value, then strings (and objects and
    /// arrays, as text) byte by byte.
    static func ordering(for sort: [TodoQuery.Sort], binds: inout PostgresBindings) -> String {
        var terms: [String] = []
        for field in sort {
            binds.append(field.field)
            let value = "(body -> $\(binds.count)::text)"
            let direction = field.descending ? " DESC" : ""
            terms.append(
                "(CASE jsonb_typeof(\(value)) WHEN 'number' THEN 1 WHEN 'boolean' THEN 1 WHEN 'string' THEN 2 "
                    + "WHEN 'object' THEN 2 WHEN 'array' THEN 2 ELSE 0 END)\(direction)"
            )
            terms.append(
                "(CASE jsonb_typeof(\(value)) WHEN 'number' THEN (\(value) #>> '{}')::numeric "
                    + "WHEN 'boolean' THEN (CASE WHEN \(value) = 'true'::jsonb THEN 1 ELSE 0 END) END)\(direction)"
            )
            terms.append("(CASE WHEN jsonb_typeof(\(value)) IN ('string', 'object', 'array') THEN \(value) #>> '{}' END) COLLATE \"C\"\(direction)")
        }
        terms.append("seq")
        return terms.joined(separator: ", ")
    }
}
