import GRDB

// MARK: - Database Access: Reads

extension SQLiteTodoRepository {
    public func checkHealth() async throws {
        do {
            // Compiled once per connection: load balancers ask often.
            try readOneStatementNow { db in try db.cachedStatement(sql: "SELECT 1 FROM account LIMIT 1").execute() }
        } catch let error as ServerError {
            throw ServerError(.serviceUnavailable, "The database does not answer: \(error.message)")
        }
    }

    public func get(id: String) async throws -> StoredTodo? {
        try readOneStatementNow { db in
            // Compiled once per connection: the hottest query the server runs.
            let statement = try db.cachedStatement(sql: list == nil
                ? "SELECT body, version FROM item WHERE account = ? AND id = ? AND deleted = 0"
                : "SELECT body, version FROM item WHERE account = ? AND id = ? AND list = ?")
            let rows = try Row.fetchCursor(statement, arguments: list.map { [account.rawValue, id, $0] } ?? [account.rawValue, id])
            // The row is read where SQLite holds it, not copied; the cursor
            // resets the statement, ending the read, when it goes.
            return try withExtendedLifetime(rows) {
                try rows.next().map { StoredTodo(id: id, version: $0[1], json: $0[0]) }
            }
        }
    }

    public func list(_ query: TodoQuery) async throws -> TodoList {
        let (condition, filterArguments) = Self.condition(for: query, account: account, list: list)
        let (order, orderArguments) = Self.ordering(for: query.sort)
        let (page, pageArguments): (String, StatementArguments) =
            switch query.paging {
            case .all: ("", [])
            case .limit(let limit): ("LIMIT ?", [limit])
            case .page(let number, let size, _): ("LIMIT ? OFFSET ?", [size, (number - 1) * size])
            }
        let isPaged = query.paging != .all
        let accountKey = account.rawValue
        return try await read { db in
            // The array is built by SQLite from the stored text: no item is decoded.
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) AS n, '[' || coalesce(group_concat(body, ','), '') || ']' AS json
                    FROM (SELECT body FROM item WHERE \(condition) ORDER BY \(order) \(page))
                    """,
                arguments: filterArguments + orderArguments + pageArguments
            )
            let pageCount: Int = row?["n"] ?? 0
            let total =
                isPaged
                ? try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE \(condition)", arguments: filterArguments) ?? 0
                : pageCount
            let cursor = try Int.fetchOne(db, sql: "SELECT lastChangeSeq FROM account WHERE id = ?", arguments: [accountKey]) ?? 0
            let json: String = row?["json"] ?? "[]"
            return TodoList(json: json, total: total, cursor: cursor)
        }
    }

    public func changes(since cursor: Int, limit: Int?) async throws -> ChangeFeed {
        let retentionDays = tombstoneRetention.components.seconds / 86_400
        let accountKey = account.rawValue
        return try await read { db in
            guard let feed = try Row.fetchOne(db, sql: "SELECT lastChangeSeq, purgedThrough FROM account WHERE id = ?", arguments: [accountKey]) else {
                throw ServerError.accountGone
            }
            let last: Int = feed["lastChangeSeq"]
            let purged: Int = feed["purgedThrough"]
            if cursor < purged {
                throw ServerError.cursorTooOld(cursor, retentionDays: retentionDays)
            }
            if cursor > last {
                throw ServerError.cursorAhead(cursor, latest: last)
            }
            let rows = try Row.fetchAll(
                db,
                sql: list == nil
                    ? "SELECT body, deleted, changeSeq FROM item WHERE account = :account AND changeSeq > :cursor ORDER BY changeSeq LIMIT :limit"
                    : Self.listFeed,
                arguments: ["account": accountKey, "list": list, "cursor": cursor, "limit": limit ?? -1]
            )
            var items: [String] = []
            var deleted: [String] = []
            for row in rows {
                if row["deleted"] as Bool {
                    deleted.append(row["body"])
                } else {
                    items.append(row["body"])
                }
            }
            let lastSeen: Int = rows.last?["changeSeq"] ?? last
            let hasMore = limit != nil && rows.count == limit && lastSeen < last
            return ChangeFeed(
                itemsJSON: "[" + items.joined(separator: ",") + "]",
                deletedJSON: "[" + deleted.joined(separator: ",") + "]",
                cursor: hasMore ? lastSeen : last,
                hasMore: hasMore
            )
        }
    }
}

// MARK: - Query building

extension SQLiteTodoRepository {
    /// A list's change feed: its todos changed after the cursor, and those
    /// that left it since, each reported as deleted with its id alone (where
    /// it went, and what it says now, is not the list's members' business).
    static let listFeed = """
        SELECT body, deleted, changeSeq FROM (
            SELECT body, 0 AS deleted, changeSeq FROM item
            WHERE account = :account AND list = :list AND changeSeq > :cursor
            UNION ALL
            SELECT json_object('id', json(i.body -> '$.id'), 'deleted', json('true')), 1, d.changeSeq
            FROM listDeparture AS d JOIN item AS i ON i.account = d.account AND i.id = d.id
            WHERE d.account = :account AND d.list = :list AND d.changeSeq > :cursor
        ) ORDER BY changeSeq LIMIT :limit
        """
}

extension SQLiteTodoRepository {
    /// The WHERE clause for a query's filters and search, with its arguments.
    static func condition(for query: TodoQuery, account: AccountID, list: String? = nil) -> (String, StatementArguments) {
        var clauses = ["account = ?", "deleted = 0"]
        var arguments: [any DatabaseValueConvertible] = [account.rawValue]
        if let list {
            clauses.append("list = ?")
            arguments.append(list)
        }
        for filter in query.filters {
            let placeholders = Array(repeating: "?", count: filter.values.count).joined(separator: ",")
            if filter.field == "id" {
                clauses.append("id IN (\(placeholders))")
            } else {
                // A value matches a field's string form: `true`, `3`, or the string itself.
                clauses.append("(CASE json_type(body, ?) WHEN 'text' THEN body ->> ? ELSE body -> ? END) IN (\(placeholders))")
                let path = Self.path(filter.field)
                arguments += [path, path, path]
            }
            arguments += filter.values
        }
        if let search = query.search {
            clauses.append(
                """
                EXISTS (SELECT 1 FROM json_each(item.body) AS field WHERE field.type = 'text'
                    AND field.key <> 'updatedAt' AND instr(serverLower(field.value), ?) > 0)
                """
            )
            arguments.append(search)
        }
        return (clauses.joined(separator: " AND "), StatementArguments(arguments))
    }

    /// ORDER BY terms: each sort field, then creation order.
    static func ordering(for sort: [TodoQuery.Sort]) -> (String, StatementArguments) {
        var terms: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        for field in sort {
            terms.append("body ->> ?" + (field.descending ? " DESC" : ""))
            arguments.append(Self.path(field.field))
        }
        terms.append("seq")
        return (terms.joined(separator: ", "), StatementArguments(arguments))
    }
}
