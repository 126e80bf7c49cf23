import PostgresNIO

// The writes of `PostgresTodoRepository`, each one prepared statement, run
// in a transaction of their own or in a batch's (never committed implicitly
// at the end of the statement: PostgresNIO hands over a statement's rows
// before such a commit has ended, and a commit cut then would lose a write
// already answered 200).
//
// Each starts by bumping its account's change counter in a data-modifying
// CTE, `seq`, and stamps the todo with the number: the row lock the bump
// takes is held to the commit, so one account's writers commit in counter
// order and the feed never skips a change. The todo is changed only after
// `seq` has run, so every writer takes the account's lock before a todo's
// and two writers cannot deadlock on them.
//
// The bump happens only when the todo looks changeable, so a write answered
// 404, 409 or 412 takes no number. The statement's snapshot is taken before
// it waits for the lock, so a write that raced another may still take a
// number and change nothing (a number with no change: harmless to the feed),
// or see a todo as it was before the other write committed; the repository
// then looks again and decides (`PostgresTodoRepository.outcome`).

/// POST: a new todo, or a tombstone's id used again (its versions go on from
/// the tombstone's, so an If-Match against the old todo never matches the
/// new one). No row when the id is taken by a live todo.
struct CreateTodo: PostgresPreparedStatement {
    static let sql = """
        WITH seq AS (
            UPDATE account SET last_change_seq = last_change_seq + 1
            WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM item WHERE account = $1 AND id = $2 AND NOT deleted)
            RETURNING last_change_seq
        )
        INSERT INTO item AS i (account, id, body, version, updated_at, change_seq, deleted)
        SELECT $1, $2, ($3::jsonb - 'version' - 'updatedAt')
                || jsonb_build_object('id', $4::jsonb, 'version', 1, 'updatedAt', $5::text),
            1, $6, seq.last_change_seq, false
        FROM seq
        ON CONFLICT (account, id) DO UPDATE SET body = excluded.body || jsonb_build_object('version', i.version + 1),
            version = i.version + 1, updated_at = excluded.updated_at, change_seq = excluded.change_seq, deleted = false
        WHERE i.deleted
        RETURNING body::text, version
        """
    typealias Row = (String, Int)
    let bindings: PostgresBindings

    /// `idJSON` is the id as the body's JSON value; `time` is `updatedAt` as served.
    init(account: AccountID, key: String, payload: TodoPayload, idJSON: String, time: String, milliseconds: Int64) {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(account.rawValue)
        bindings.append(key)
        bindings.append(payload.json)
        bindings.append(idJSON)
        bindings.append(time)
        bindings.append(milliseconds)
        self.bindings = bindings
    }

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// PUT and PATCH: a compare-and-set of the new object on the version the
/// `If-Match` names; no row when the todo is missing or another version.
protocol UpdateTodo: PostgresPreparedStatement where Row == (String, Int) {
    init(bindings: PostgresBindings)
}

extension UpdateTodo {
    /// The statement with `body` (an expression of the stored `body`, the
    /// payload `$5`, the new `version` and `updatedAt` `$6`) as the new object.
    static func updateSQL(newBody body: String) -> String {
        """
        WITH seq AS (
            UPDATE account SET last_change_seq = last_change_seq + 1
            WHERE id = $1 AND EXISTS (
                SELECT 1 FROM item WHERE account = $1 AND id = $2 AND NOT deleted AND ($3 OR version = ANY($4)))
            RETURNING last_change_seq
        )
        UPDATE item SET body = \(body),
            version = version + 1, updated_at = $7, change_seq = seq.last_change_seq
        FROM seq
        WHERE account = $1 AND id = $2 AND NOT deleted AND ($3 OR version = ANY($4))
        RETURNING body::text, version
        """
    }

    init(account: AccountID, id: String, ifMatch: IfMatch?, payload: TodoPayload, time: String, milliseconds: Int64) {
        var bindings = PostgresBindings(capacity: 7)
        bindings.appendTarget(account: account, id: id, ifMatch: ifMatch)
        bindings.append(payload.json)
        bindings.append(time)
        bindings.append(milliseconds)
        self.init(bindings: bindings)
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// PUT: the payload's fields; the id stays the stored one whatever the body says, as in json-server.
struct ReplaceTodo: UpdateTodo {
    static let sql = updateSQL(
        newBody: """
            ($5::jsonb - 'version' - 'updatedAt' - 'id')
                    || jsonb_build_object('id', body -> 'id', 'version', version + 1, 'updatedAt', $6::text)
            """
    )
    typealias Row = (String, Int)
    let bindings: PostgresBindings
    init(bindings: PostgresBindings) { self.bindings = bindings }
    func makeBindings() -> PostgresBindings { bindings }
}

/// PATCH: a shallow merge, as json-server's: each top-level field of the
/// patch replaces the stored one whole (null included); others stay.
struct PatchTodo: UpdateTodo {
    static let sql = updateSQL(
        newBody: """
            body || ($5::jsonb - 'id' - 'version' - 'updatedAt')
                    || jsonb_build_object('version', version + 1, 'updatedAt', $6::text)
            """
    )
    typealias Row = (String, Int)
    let bindings: PostgresBindings
    init(bindings: PostgresBindings) { self.bindings = bindings }
    func makeBindings() -> PostgresBindings { bindings }
}

/// DELETE: the todo becomes a tombstone; the row holds the todo as it was
/// (locked before it is read, so it is the version the delete replaced), the
/// tombstone's version, and whether the account has tombstones old enough to
/// purge. No row when the todo is missing or another version.
struct DeleteTodo: PostgresPreparedStatement {
    static let sql = """
        WITH seq AS (
            UPDATE account SET last_change_seq = last_change_seq + 1
            WHERE id = $1 AND EXISTS (
                SELECT 1 FROM item WHERE account = $1 AND id = $2 AND NOT deleted AND ($3 OR version = ANY($4)))
            RETURNING last_change_seq
        ), old AS MATERIALIZED (
            SELECT i.body::text AS body FROM item AS i, seq
            WHERE i.account = $1 AND i.id = $2 AND NOT i.deleted AND ($3 OR i.version = ANY($4))
            FOR UPDATE OF i
        )
        UPDATE item AS i SET body = jsonb_build_object('id', i.body -> 'id', 'version', i.version + 1,
                'updatedAt', $5::text, 'deleted', true),
            version = i.version + 1, updated_at = $6, change_seq = seq.last_change_seq, deleted = true
        FROM seq, old
        WHERE i.account = $1 AND i.id = $2 AND NOT i.deleted AND ($3 OR i.version = ANY($4))
        RETURNING old.body, i.version,
            EXISTS (SELECT 1 FROM item WHERE account = $1 AND deleted AND updated_at < $7)
        """
    typealias Row = (String, Int, Bool)
    let bindings: PostgresBindings

    init(account: AccountID, id: String, ifMatch: IfMatch?, time: String, milliseconds: Int64, purgeCutoff: Int64) {
        var bindings = PostgresBindings(capacity: 7)
        bindings.appendTarget(account: account, id: id, ifMatch: ifMatch)
        bindings.append(time)
        bindings.append(milliseconds)
        bindings.append(purgeCutoff)
        self.bindings = bindings
    }

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// Why a write changed nothing, seen afresh: the todo's live version (nil
/// when there is none) and whether the account still exists.
struct LiveVersion: PostgresPreparedStatement {
    static let sql = """
        SELECT (SELECT version FROM item WHERE account = $1 AND id = $2 AND NOT deleted),
            EXISTS (SELECT 1 FROM account WHERE id = $1)
        """
    typealias Row = (Int?, Bool)
    let bindings: PostgresBindings

    init(account: AccountID, id: String) {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(account.rawValue)
        bindings.append(id)
        self.bindings = bindings
    }

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

extension PostgresBindings {
    /// `$1` to `$4` of a write to one todo: its account, its id, and the
    /// `If-Match` as SQL (any version, or one of these).
    mutating func appendTarget(account: AccountID, id: String, ifMatch: IfMatch?) {
        append(account.rawValue)
        append(id)
        switch ifMatch {
        case nil, .any?:
            append(true)
            append([Int64]())
        case .versions(let versions)?:
            append(false)
            append(versions.map(Int64.init))
        }
    }
}
