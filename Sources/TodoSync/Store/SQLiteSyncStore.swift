import Foundation
import GRDB
import TodoCore
import TodoStorage

/// The bookkeeping of `todo sync` (tables from 0002_sync.sql and
/// 0005_sync_edit_times.sql) in the todos' own database: a type of its own
/// over `AppDatabase`, which knows nothing of sync. Each step of a sync is one
/// transaction holding the todo and the bookkeeping that describes it,
/// written on the primitives storage shares within the package.
public struct SQLiteSyncStore: SyncStore {
    public let database: AppDatabase

    public init(_ database: AppDatabase) {
        self.database = database
    }

    var path: String { database.path }
    var dbWriter: any DatabaseWriter { database.dbWriter }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try StorageError.wrap(path: path) { try dbWriter.read(body) }
    }

    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try database.write(updates)
    }
}

extension SQLiteSyncStore {
    /// Undo's journal marks where sending began (`AppDatabase.markSending`).
    public func markSending() async throws {
        try database.markSending()
    }

    public func pendingChanges() async throws -> [(todoId: UUID, rev: Int64)] {
        try read { db in
            var changes: [(todoId: UUID, rev: Int64)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT todoId, rev FROM syncPending ORDER BY rev")
            while let row = try rows.next() {
                if let todoId = UUID(parsing: row[0]) { changes.append((todoId, row[1])) }
            }
            return changes
        }
    }

    public func pendingCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPending") ?? 0 }
    }

    public func localChangeMarker() async throws -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(rev) FROM syncPending") }
    }

    public func unconfirmedCreates() async throws -> [UnconfirmedCreate] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT todoId, sentAfter, answered FROM syncUnconfirmed WHERE write = 'create' ORDER BY answered"
            ).compactMap { row in
                UUID(parsing: row[0]).map { UnconfirmedCreate(todoId: $0, order: AnswerOrder(sentAfter: row[1], answered: row[2])) }
            }
        }
    }

    public func nextAnswerNumber() async throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT \(Self.nextAnswer)") ?? 1 }
    }

    /// The answer number after every one recorded (`AnswerOrder`).
    static let nextAnswer = "(SELECT coalesce(max(answered), 0) + 1 FROM syncUnconfirmed)"

    public func unconfirmedWrites() async throws -> [UUID] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT todoId FROM syncUnconfirmed ORDER BY rowid").compactMap(UUID.init(parsing:))
        }
    }

    public func confirmCreates(_ todoIds: [UUID]) async throws {
        guard !todoIds.isEmpty else { return }
        try write { db in
            for todoId in todoIds {
                try db.executeCached(sql: "DELETE FROM syncUnconfirmed WHERE todoId = ?", arguments: [todoId.lowercasedString])
            }
        }
    }

    public func todosCreatedInFlight() async throws -> [UUID] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT todoId FROM syncCreateInFlight").compactMap(UUID.init(parsing:))
        }
    }

    public func createsInFlight() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncCreateInFlight") ?? 0 }
    }

    public func baseCount() async throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncBase") ?? 0 }
    }

    public func syncRows(todoIds: [UUID]) async throws -> [UUID: SyncRow] {
        guard !todoIds.isEmpty else { return [:] }
        return try read { db in
            // Empty tables (as in a first sync) are not looked up 100,000 times.
            let (noBases, noTodos) = (try AppDatabase.isEmpty(db, "syncBase"), try AppDatabase.isEmpty(db, "todo"))
            if noBases, noTodos, try AppDatabase.isEmpty(db, "syncPending") { return [:] }
            let keys = todoIds.map { $0.lowercasedString }
            var bases: [UUID: SyncBase] = [:]
            if !noBases {
                try AppDatabase.forEachRow(db, "SELECT \(Self.baseColumns) FROM syncBase WHERE todoId IN", keys) { row in
                    if let base = SyncBase(row: row) { bases[base.todoId] = base }
                }
            }
            var locals: [UUID: TodoItem] = [:]
            if !noTodos {
                locals.reserveCapacity(todoIds.count)
                // Most of the table (a push of 10,000 new todos): one pass
                // over it costs less than looking each one up.
                if try Self.upperBoundOfRows(db, "todo") <= 2 * keys.count {
                    let wanted = Set(todoIds)
                    let rows = try Row.fetchCursor(db, sql: "SELECT \(TodoItem.selection) FROM todo")
                    while let row = try rows.next() {
                        if let item = TodoItem(row: row), wanted.contains(item.id) { locals[item.id] = item }
                    }
                } else {
                    try AppDatabase.forEachRow(db, "SELECT \(TodoItem.selection) FROM todo WHERE id IN", keys) { row in
                        if let item = TodoItem(row: row) { locals[item.id] = item }
                    }
                }
            }
            let revs = try Self.pendingRevs(db, keys)
            var sets: [UUID: SetsInFlight] = [:]
            if try !AppDatabase.isEmpty(db, "syncSetsInFlight") {
                try AppDatabase.forEachRow(db, "SELECT todoId, tags, blockedBy FROM syncSetsInFlight WHERE todoId IN", keys) { row in
                    if let id = UUID(parsing: row[0]) {
                        sets[id] = SetsInFlight(
                            tags: (row[1] as String?).map(TagList.decode) ?? [], blockedBy: (row[2] as String?).map(IDList.decode) ?? []
                        )
                    }
                }
            }
            var rows: [UUID: SyncRow] = [:]
            rows.reserveCapacity(todoIds.count)
            for (id, key) in zip(todoIds, keys) {
                let base = bases[id], local = locals[id], rev = revs[key]
                if base != nil || local != nil || rev != nil {
                    rows[id] = SyncRow(todoId: id, base: base, local: local, pendingRev: rev)
                    rows[id]?.setsInFlight = sets[id]
                }
            }
            return rows
        }
    }

    public func allBases() async throws -> [SyncBase] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.baseColumns) FROM syncBase").compactMap(SyncBase.init(row:))
        }
    }

    public func bases(remoteIds: [String]) async throws -> [String: SyncBase] {
        try read { db in
            var bases: [String: SyncBase] = [:]
            try AppDatabase.forEachRow(db, "SELECT \(Self.baseColumns) FROM syncBase WHERE remoteId IN", remoteIds) { row in
                // One base per remote id, as a lookup by it would find.
                if bases[row["remoteId"]] == nil, let base = SyncBase(row: row) { bases[base.remoteId] = base }
            }
            return bases
        }
    }

    public func remoteUIDs() async throws -> [String: UUID] {
        try read { db in
            var uids: [String: UUID] = [:]
            // A UID two bases hold names the first in id order, as on every replica.
            for row in try Row.fetchAll(db, sql: "SELECT remoteUID, todoId FROM syncBase WHERE remoteUID IS NOT NULL ORDER BY todoId") {
                if let id = UUID(parsing: row["todoId"]), uids[row["remoteUID"]] == nil { uids[row["remoteUID"]] = id }
            }
            return uids
        }
    }

    public func apply(_ writes: [SyncWrite]) async throws -> [Bool] {
        try write { db in try Self.apply(db, writes, recordPushesInBulk: true) }
    }

    /// Each write, in one transaction; a push's records (most of a sync that
    /// sends) in bulk when `recordPushesInBulk`, which leaves exactly what
    /// applying them one by one leaves (`RecordPushesTests`).
    static func apply(_ db: Database, _ writes: [SyncWrite], recordPushesInBulk: Bool) throws -> [Bool] {
        let pushes = recordPushesInBulk ? writes.indices.filter { writes[$0].onlyRecordsAPush } : []
        // One write a todo, as a plan has one step a todo; otherwise in order, one by one.
        guard pushes.count >= 8, Set(writes.lazy.map(\.todoId)).count == writes.count else {
            return try writes.map { try apply(db, $0) }
        }
        var applied = [Bool](repeating: false, count: writes.count)
        let inBulk = Set(pushes)
        for index in writes.indices where !inBulk.contains(index) {
            applied[index] = try apply(db, writes[index])
        }
        for (index, stored) in zip(pushes, try recordPushes(db, pushes.map { writes[$0] })) {
            applied[index] = stored
        }
        return applied
    }

    static func apply(_ db: Database, _ step: SyncWrite) throws -> Bool {
        let key = step.todoId.lowercasedString
        let rev = try Int64.fetchOne(db.cachedStatement(sql: "SELECT rev FROM syncPending WHERE todoId = ?"), arguments: [key])
        guard rev == step.expectedRev else { return false }
        let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM todo WHERE id = ?"), arguments: [key]) ?? false
        switch step.todo {
        case .keep:
            break
        case let .save(item) where exists:
            try db.executeCached(sql: """
                    UPDATE todo SET \(TodoItem.updateAssignments)
                    WHERE id = ?1
                    """,
                arguments: item.databaseValues
            )
        case let .save(item):
            try AppDatabase.insert(db, item)
        case .delete:
            if exists { try AppDatabase.delete(db, id: key) }
        }
        // The triggers queued our own write: it is synced by this very step.
        try record(db, step, key: key, inFlight: true, pending: true)
        return true
    }

    /// A step's bookkeeping once its todo is written: its create is no longer
    /// in flight, nothing is queued for it, its base and conflicts are kept.
    /// `inFlight` and `pending` false say there is no such row to delete.
    private static func record(_ db: Database, _ step: SyncWrite, key: String, inFlight: Bool, pending: Bool) throws {
        if inFlight {
            try db.executeCached(sql: "DELETE FROM syncCreateInFlight WHERE todoId = ?", arguments: [key])
        }
        // Its answer recorded (or the merge that read what was sent): settled.
        if step.base != .keep, try !AppDatabase.isEmpty(db, "syncSetsInFlight") {
            try db.executeCached(sql: "DELETE FROM syncSetsInFlight WHERE todoId = ?", arguments: [key])
        }
        if pending {
            try db.executeCached(sql: "DELETE FROM syncPending WHERE todoId = ?", arguments: [key])
        }
        switch step.base {
        case .keep:
            break
        case let .set(base):
            try db.cachedStatement(sql: setBaseSQL).execute(arguments: StatementArguments(values(of: base, key: key)))
        case .remove:
            try db.executeCached(sql: "DELETE FROM syncBase WHERE todoId = ?", arguments: [key])
        }
        if step.awaitsListing || step.awaitsReport {
            // Without an order given: after every answer recorded, as if sent alone.
            let order: [Int64?] = [step.answerOrder?.sentAfter, step.answerOrder?.answered]
            let values = "(?, ?, coalesce(?, \(Self.nextAnswer)), coalesce(?, \(Self.nextAnswer)))"
            // A create still unconfirmed stays one: lost, it is sent again.
            let write = step.awaitsListing ? "INSERT OR REPLACE" : "INSERT"
            let upsert = step.awaitsListing ? "" : " ON CONFLICT(todoId) DO NOTHING"
            try db.executeCached(
                sql: "\(write) INTO syncUnconfirmed(todoId, write, sentAfter, answered) VALUES \(values)\(upsert)",
                arguments: StatementArguments([key, step.awaitsListing ? "create" : "change"] + order)
            )
        } else if step.base == .remove, try !AppDatabase.isEmpty(db, "syncUnconfirmed") {
            try db.executeCached(sql: "DELETE FROM syncUnconfirmed WHERE todoId = ?", arguments: [key])
        }
        if step.base == .remove, try !AppDatabase.isEmpty(db, "syncResent") {
            try db.executeCached(sql: "DELETE FROM syncResent WHERE todoId = ?", arguments: [key])
        }
        for conflict in step.conflicts {
            try db.executeCached(sql: """
                    INSERT INTO syncConflict(at, todoId, field, localValue, remoteValue, winner, localEditedAt, remoteEditedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    conflict.at.millisecondsSince1970, key, conflict.field,
                    conflict.localValue, conflict.remoteValue, conflict.winner.rawValue,
                    conflict.localEditedAt?.millisecondsSince1970, conflict.remoteEditedAt?.millisecondsSince1970,
                ]
            )
        }
    }
}
