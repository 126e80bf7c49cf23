import Foundation
import GRDB
import GRDBSQLite
import TodoCore

// MARK: - Bulk inserts
// `insert` costs two neighbour lookups and two trigger programs per todo. When
// many todos arrive at once (an import, a first sync), the short IDs are
// computed in one pass over the sorted IDs instead, and the work of the insert
// triggers is done by one statement for all the new rows.

/// What an insert trigger on `todo` does, done once for all the rows of a
/// bulk insert: statements whose one parameter is the first new row's `seq`
/// (the new rows are those at or above it). A trigger given no statements is
/// dropped and its work not done at all.
///
/// `insertMany` drops only the triggers it is given work for; any other
/// fires row by row as on any insert. So the work a layer above adds to the
/// schema (sync's queue of local changes) stays that layer's, and a trigger
/// nobody named is slower, never skipped.
package struct BulkInsertWork: Sendable {
    package var statements: [String: [String]]

    package init(_ statements: [String: [String]]) {
        self.statements = statements
    }

    /// `self`, with `other`'s triggers added or replaced.
    package func merging(_ other: BulkInsertWork) -> BulkInsertWork {
        BulkInsertWork(statements.merging(other.statements) { $1 })
    }

    /// Storage's own insert triggers: the search index and the tag index.
    package static let storage = BulkInsertWork([
        "todo_after_insert": ["INSERT INTO todoSearch(rowid, searchText) SELECT seq, searchText FROM todo WHERE seq >= ?"],
        "todo_after_insert_tags": ["""
            INSERT INTO todoTag(tag, isDone, createdAt, seq)
            SELECT tag.value, todo.isDone, todo.createdAt, todo.seq FROM todo, json_each(todo.tags) AS tag
            WHERE todo.seq >= ? AND todo.tags IS NOT NULL
            """],
    ])
}

extension AppDatabase {
    /// Whether `count` new todos are enough, beside `existing` rows, for
    /// `insertMany` to pay: it reads every ID already there, and changing the
    /// schema has a fixed cost.
    package static func prefersBulkInsert(count: Int, existing: Int) -> Bool {
        count >= 1_000 && count * 10 >= existing
    }

    /// `prefersBulkInsert` against the rows in the table now, counted only
    /// when `count` is enough for bulk work at all (a delete of many, too,
    /// pays for a pass over every row to set the short IDs).
    package static func prefersBulkInsert(_ db: Database, count: Int) throws -> Bool {
        guard prefersBulkInsert(count: count, existing: 0) else { return false }
        return prefersBulkInsert(count: count, existing: try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") ?? 0)
    }

    /// Inserts todos none of whose IDs is in the table, leaving exactly what
    /// `insert` one by one would: the rows, every short ID, and what each
    /// insert trigger does, the triggers named in `work` by its statements
    /// run once for all the new rows (`BulkInsertWork.storage`, unless a
    /// caller adds its own).
    ///
    /// Runs inside the caller's transaction: it drops those triggers (and,
    /// into an empty table, the secondary indexes) and creates them again from
    /// their own SQL, and DDL is transactional in SQLite, so a failure anywhere
    /// rolls back to the schema as it was.
    ///
    /// `ids`, if given, are the items' `idString`s, already formed by the
    /// caller. `items` may be a lazy collection: each is read once, in order.
    package static func insertMany<Items: RandomAccessCollection<TodoItem>>(
        _ db: Database, _ items: Items, ids: [String]? = nil, work: BulkInsertWork = .storage, withPlans: Bool? = nil
    ) throws where Items.Index == Int {
        guard !items.isEmpty else { return }
        precondition(ids == nil || ids?.count == items.count, "one id per item")
        guard db.isInsideTransaction else {
            throw StorageError.sqlite("a bulk insert must run inside a transaction; nothing was written")
        }
        let lastSeq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM todo")
        let firstSeq = (lastSeq ?? 0) + 1
        let ids = ids ?? items.map(\.idString)
        let lengths = try prefixLengths(db, adding: ids)

        let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'todo'")
            .map { (name: $0["name"] as String, sql: $0["sql"] as String) }
            .filter { work.statements[$0.name] != nil }
        for trigger in triggers {
            try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)")
        }
        // Without a plan field in the batch (most todos have none), the plan's
        // columns are left to their default, NULL.
        let plans = withPlans ?? items.indices.contains { items[$0].hasPlan }
        let columns = plans ? TodoItem.writtenCount : TodoItem.planlessCount
        // Into an empty table, the secondary indexes are built once the rows
        // are in, by sorting, instead of row by row (a descent and a balance
        // per row and index): 65 ms less for 100,000 todos, and denser pages.
        // (`id`'s own UNIQUE index stays: it enforces that ids do not repeat.)
        // A partial index on a plan column (`WHERE parent IS NOT NULL`) that
        // no new row enters stays too: building it scans every row, however
        // few it holds (10 ms an index at 100,000).
        let untouched = plans ? [] : TodoItem.planValueColumns.map { " WHERE \($0) IS NOT NULL" }
        let indexes = lastSeq == nil
            ? try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todo' AND sql IS NOT NULL")
                .map { (name: $0["name"] as String, sql: $0["sql"] as String) }
                .filter { index in !untouched.contains { index.sql.hasSuffix($0) } }
            : []
        for index in indexes {
            try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)")
        }
        // The values of `TodoItem.databaseValues`, bound directly.
        let insert = try ChunkedInsert(
            db, into: "todo (\(plans ? TodoItem.writtenColumns : TodoItem.planlessColumns), idPrefixLength)",
            columns: columns + 1
        )
        try insert.insert(count: items.count) { statement, index, first in
            let item = items[items.startIndex + index]
            statement.bind(first, ids[index])
            statement.bind(first + 1, TodoItem.searchKey(item.text))
            statement.bind(first + 2, item.createdAt.millisecondsSince1970)
            statement.bind(first + 3, item.updatedAt.millisecondsSince1970)
            statement.bind(first + 4, item.completedAt?.millisecondsSince1970)
            statement.bind(first + Int32(columns), Int64(lengths.new[index]))
            statement.bind(item, from: first + 5, withPlan: plans)
        }
        // Rowids are handed out above the largest: the new rows are exactly these.
        let inserted = try Int.fetchOne(db, sql: "SELECT count(*) FROM todo WHERE seq >= ?", arguments: [firstSeq]) ?? 0
        guard inserted == items.count else {
            throw StorageError.sqlite("a bulk insert stored \(inserted) of \(items.count) todos; nothing was written")
        }
        for index in indexes {
            try db.execute(sql: index.sql)
        }
        for trigger in triggers {
            for statement in work.statements[trigger.name] ?? [] {
                try db.execute(sql: statement, arguments: [firstSeq])
            }
        }
        for trigger in triggers {
            try db.execute(sql: trigger.sql)
        }
        let update = try db.cachedStatement(sql: "UPDATE todo SET idPrefixLength = ? WHERE seq = ?")
        for change in lengths.changed {
            try update.execute(arguments: [change.length, change.seq])
        }
    }

    /// The short-ID lengths once `newIds` (none of them in the table) join the
    /// table: one per new ID, in order, and those of existing rows that change.
    static func prefixLengths(_ db: Database, adding newIds: [String]) throws -> (new: [Int], changed: [(seq: Int64, length: Int)]) {
        // A sync hands its new IDs in order already.
        let order = isStrictlyIncreasing(newIds) ? Array(newIds.indices) : newIds.indices.sorted { newIds[$0] < newIds[$1] }
        // Every ID in order, the existing ones (with their row and length) merged with the new.
        var merged: [(id: String, new: Int?, seq: Int64, length: Int)] = []
        merged.reserveCapacity(newIds.count)
        var next = order.startIndex
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, seq, idPrefixLength FROM todo ORDER BY id")
        while let row = try cursor.next() {
            let id: String = row[0]
            while next < order.endIndex, newIds[order[next]] < id {
                merged.append((newIds[order[next]], order[next], 0, 0))
                next += 1
            }
            merged.append((id, nil, row[1], row[2]))
        }
        for index in order[next...] {
            merged.append((newIds[index], index, 0, 0))
        }
        var new = [Int](repeating: TodoID.minimumPrefixLength, count: newIds.count)
        var changed: [(seq: Int64, length: Int)] = []
        for (position, entry) in merged.enumerated() {
            let length = TodoID.uniquePrefixLength(
                of: entry.id,
                previous: position > 0 ? merged[position - 1].id : nil,
                next: position + 1 < merged.count ? merged[position + 1].id : nil
            )
            if let index = entry.new {
                new[index] = length
            } else if length != entry.length {
                changed.append((entry.seq, length))
            }
        }
        return (new, changed)
    }

    /// Whether each value is greater than the one before it (so none repeats).
    package static func isStrictlyIncreasing(_ values: [String]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// Runs `body`, a transaction writing many rows (when `large`), the way a
    /// bulk load is cheapest:
    /// - with a cache big enough to hold every page it writes: with SQLite's
    ///   small default, such a transaction spills pages again and again before
    ///   it commits;
    /// - with a rollback journal instead of the write-ahead log, when no other
    ///   connection has the file open: new pages are then written once, into
    ///   the file, instead of into the log and again by the checkpoint (100 ms
    ///   of a first sync of 100,000 todos). `synchronous = FULL` meanwhile, so
    ///   the commit is as durable as in WAL mode. A process that opens the
    ///   file meanwhile waits for the commit instead of reading the state
    ///   before it. Afterwards the file is back in WAL mode; should that fail,
    ///   the next `todo` to open it turns it back.
    package static func withBulkWriting<T>(_ db: Database, if large: Bool, _ body: () throws -> T) throws -> T {
        guard large else { return try body() }
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -1048576")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        let wal = try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal"
        // Changing mode needs the only connection to the file. With another
        // one open it fails as "locked": at once, not after the busy timeout.
        guard wal, setJournalMode(db, "delete") else { return try body() }
        let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 1
        try db.execute(sql: "PRAGMA synchronous = FULL")
        defer {
            _ = setJournalMode(db, "wal")
            try? db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        return try body()
    }

    /// Sets the journal mode if SQLite can do it without waiting for a lock.
    private static func setJournalMode(_ db: Database, _ mode: String) -> Bool {
        // Waiting is switched off for this statement only, then restored as
        // the configuration set it; a custom busy handler cannot be restored.
        let busyMode = db.configuration.busyMode
        let restore: CInt
        switch busyMode {
        case .immediateError: restore = 0
        case let .timeout(seconds): restore = CInt(seconds * 1000)
        case .callback: return false
        }
        sqlite3_busy_timeout(db.sqliteConnection, 0)
        defer { sqlite3_busy_timeout(db.sqliteConnection, restore) }
        return (try? String.fetchOne(db, sql: "PRAGMA journal_mode = \(mode)")) == mode
    }
}
