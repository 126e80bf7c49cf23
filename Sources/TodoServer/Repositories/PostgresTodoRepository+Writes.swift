import Foundation
import PostgresNIO

// MARK: - Database Access: Writes

// Each write is its prepared statement (PostgresWriteStatements.swift) in a
// transaction of its own, answered once the COMMIT is durable; a batch runs
// the same statements in one transaction that takes the account's lock first.
extension PostgresTodoRepository {
    public func create(_ payload: TodoPayload) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let key = payload.id?.key ?? makeID()
        return try await database.transaction { connection in try await create(connection, payload, key: key, ms: ms) }
    }

    public func replace(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await database.transaction { connection in
            try await update(connection, ReplaceTodo.self, id: id, ifMatch: ifMatch, payload: payload, ms: ms)
        }
    }

    public func patch(id: String, with payload: TodoPayload, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        return try await database.transaction { connection in
            try await update(connection, PatchTodo.self, id: id, ifMatch: ifMatch, payload: payload, ms: ms)
        }
    }

    /// Tombstones old enough are purged after the delete, in a statement of their own.
    public func delete(id: String, ifMatch: IfMatch?) async throws -> StoredTodo {
        let ms = milliseconds(now())
        let (todo, purgeDue) = try await database.transaction { connection in
            try await delete(connection, id: id, ifMatch: ifMatch, ms: ms)
        }
        if purgeDue {
            try await database.autocommit { connection in try await purgeTombstones(connection, at: ms) }
        }
        return todo
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
            try await update(connection, ReplaceTodo.self, id: key, ifMatch: operation.ifMatch, payload: payload, ms: ms)
        case let (.patch, payload?):
            try await update(connection, PatchTodo.self, id: key, ifMatch: operation.ifMatch, payload: payload, ms: ms)
        case (.delete, _):
            try await delete(connection, id: key, ifMatch: operation.ifMatch, ms: ms).todo
        default:
            throw ServerError.badRequest("A \(operation.method.rawValue) needs a body.")
        }
    }

    /// A create on `connection`; 409 when the id is a live todo's.
    func create(_ connection: PostgresConnection, _ payload: TodoPayload, key: String, ms: Int64) async throws -> StoredTodo {
        let statement = CreateTodo(
            account: account, key: key, payload: payload, idJSON: Self.idJSON(payload.id ?? .string(key)),
            time: Self.isoTime(ms), milliseconds: ms
        )
        return try await onList(connection, id: key, write: .create) {
            for _ in 0..<Self.maxLooksAgain {
                if let (body, version) = try await rows(statement, connection).first {
                    return StoredTodo(id: key, version: version, json: body)
                }
                switch try await outcome(connection, id: key) {
                case .live: throw ServerError.conflict(id: key)
                case .missing: continue
                case .accountGone: throw ServerError.accountGone
                }
            }
            throw ServerError.databaseBusy
        }
    }

    /// A PUT or PATCH on `connection`: 404 when the todo is missing, 412 when
    /// it is at a version `ifMatch` does not name.
    func update<Statement: UpdateTodo>(
        _ connection: PostgresConnection,
        _ kind: Statement.Type,
        id: String,
        ifMatch: IfMatch?,
        payload: TodoPayload,
        ms: Int64
    ) async throws -> StoredTodo {
        let statement = Statement(account: account, id: id, ifMatch: ifMatch, payload: payload, time: Self.isoTime(ms), milliseconds: ms)
        return try await onList(connection, id: id, write: .change) {
            for _ in 0..<Self.maxLooksAgain {
                if let (body, version) = try await rows(statement, connection).first {
                    return StoredTodo(id: id, version: version, json: body)
                }
                try await lookAgain(connection, id: id, ifMatch: ifMatch)
            }
            throw ServerError.databaseBusy
        }
    }

    /// A delete on `connection`: the todo as it was, and whether tombstones
    /// are due to be purged.
    func delete(_ connection: PostgresConnection, id: String, ifMatch: IfMatch?, ms: Int64) async throws -> (todo: StoredTodo, purgeDue: Bool) {
        let statement = DeleteTodo(account: account, id: id, ifMatch: ifMatch, time: Self.isoTime(ms), milliseconds: ms, purgeCutoff: purgeCutoff(at: ms))
        return try await onList(connection, id: id, write: .delete) {
            for _ in 0..<Self.maxLooksAgain {
                if let (oldBody, version, purgeDue) = try await rows(statement, connection).first {
                    return (StoredTodo(id: id, version: version, json: oldBody), purgeDue)
                }
                try await lookAgain(connection, id: id, ifMatch: ifMatch)
            }
            throw ServerError.databaseBusy
        }
    }

    /// What a write does to its todo, for `onList`.
    enum ListWrite { case create, change, delete }

    /// Scoped to a list, runs `write` only on a todo of the list (404 for
    /// one on another list, as for a missing one) and keeps it only if the
    /// todo is on the list after it (else 422; the caller's transaction or
    /// savepoint takes it back). The account's lock is taken first, as every
    /// writer of the account takes it, so nobody moves the todo meanwhile.
    /// Unscoped, just `write`.
    private func onList<T>(_ connection: PostgresConnection, id: String, write kind: ListWrite, _ write: () async throws -> T) async throws -> T {
        guard let list else { return try await write() }
        try await connection.query("SELECT 1 FROM account WHERE id = \(account.rawValue) FOR UPDATE", logger: database.logger)
        if kind != .create, try await listOf(connection, id: id) != list {
            throw ServerError.notFound(id: id)
        }
        let written = try await write()
        if kind != .delete, try await listOf(connection, id: id) != list {
            throw ShareRefusal.leavesList(list)
        }
        return written
    }

    /// The list the todo `id` is on; nil when it is missing or deleted.
    private func listOf(_ connection: PostgresConnection, id: String) async throws -> String? {
        let rows = try await connection.query("SELECT list FROM item WHERE account = \(account.rawValue) AND id = \(id)", logger: database.logger)
        for try await list in rows.decode(String?.self) { return list }
        return nil
    }

    private func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement,
        _ connection: PostgresConnection
    ) async throws -> [Statement.Row] {
        try await PostgresDatabase.rows(statement, on: connection, logger: database.logger)
    }

    /// How often a write looks again after its statement raced another
    /// writer of the account, before it gives up with a 503.
    static var maxLooksAgain: Int { 10 }

    /// What a todo is now, seen by a statement of its own.
    enum Outcome {
        case live(version: Int)
        case missing
        case accountGone
    }

    /// The todo's state after a write changed nothing: read afresh, since the
    /// write's statement may have looked before another write committed.
    func outcome(_ connection: PostgresConnection, id: String) async throws -> Outcome {
        guard let (version, accountExists) = try await rows(LiveVersion(account: account, id: id), connection).first, accountExists else {
            return .accountGone
        }
        return version.map { .live(version: $0) } ?? .missing
    }

    /// After an update or delete changed nothing: 404 or 412 (with the current
    /// version), or returns when the todo now matches, so the write runs again.
    private func lookAgain(_ connection: PostgresConnection, id: String, ifMatch: IfMatch?) async throws {
        switch try await outcome(connection, id: id) {
        case .missing:
            throw ServerError.notFound(id: id)
        case .accountGone:
            throw ServerError.accountGone
        case .live(let version) where !(ifMatch?.matches(version: version) ?? true):
            throw ServerError.preconditionFailed(id: id, currentVersion: version)
        case .live:
            return
        }
    }

    /// The id as a JSON value: a number stays a number.
    private static func idJSON(_ id: ItemID) -> String {
        switch id {
        case .number(let number):
            return String(number)
        case .string(let string):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return (try? encoder.encode(string)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
    }
}
