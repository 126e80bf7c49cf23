import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Database Access: bases and pushes in bulk
// A sync that pulls or pushes thousands of todos records as many bases. One
// statement a row costs more than the server's side of the push; these
// write many rows a statement.

extension SyncWrite {
    /// The write only records that the server took this todo's change (a
    /// push): the todo stays as it is, its base is set, nothing else.
    var onlyRecordsAPush: Bool {
        guard case .keep = todo, case .set = base else { return false }
        return conflicts.isEmpty && !awaitsListing
    }
}

extension SQLiteSyncStore {
    /// Records pushes (`onlyRecordsAPush`) as `apply` records each: a push
    /// whose todo changed here since it was planned is refused, the others
    /// are no longer queued nor in flight and have their new base.
    static func recordPushes(_ db: Database, _ writes: [SyncWrite]) throws -> [Bool] {
        let keys = writes.map { $0.todoId.lowercasedString }
        let revs = try pendingRevs(db, keys)
        let applied = zip(writes, keys).map { write, key in revs[key] == write.expectedRev }
        var stored: [(key: String, base: SyncBase)] = []
        stored.reserveCapacity(writes.count)
        for (index, write) in writes.enumerated() where applied[index] {
            if case let .set(base) = write.base { stored.append((keys[index], base)) }
        }
        let storedKeys = stored.map(\.key)
        if try !AppDatabase.isEmpty(db, "syncCreateInFlight") {
            try AppDatabase.executeForEach(db, "DELETE FROM syncCreateInFlight WHERE todoId IN", storedKeys)
        }
        if try !AppDatabase.isEmpty(db, "syncSetsInFlight") {
            try AppDatabase.executeForEach(db, "DELETE FROM syncSetsInFlight WHERE todoId IN", storedKeys)
        }
        if !revs.isEmpty {
            try AppDatabase.executeForEach(db, "DELETE FROM syncPending WHERE todoId IN", storedKeys)
        }
        try insertBases(
            db, stored.lazy.map(\.base), keys: storedKeys, withPlans: stored.indices.contains { stored[$0].base.usesLaterColumns }
        )
        return applied
    }

    /// Stores these bases (of the todos `keys` names), replacing any there,
    /// a thousand rows a statement. `bases` may be lazy (`withPlans` says
    /// whether one has a plan): each is read once, in order, and bound as it
    /// is read, not gathered into an array first.
    static func insertBases<Bases: RandomAccessCollection<SyncBase>>(
        _ db: Database, _ bases: Bases, keys: [String], withPlans plans: Bool
    ) throws where Bases.Index == Int {
        guard !bases.isEmpty else { return }
        // Into an empty table (a first sync) nothing can conflict: a plain
        // insert spares SQLite the upsert's conflict handling per row.
        // Without a plan field in the batch (most todos have none), the plan's
        // columns are left to their default, NULL: binding eight NULLs a row
        // made a first sync of 100,000 todos 3% longer.
        let setBase = try ChunkedInsert(
            db, into: "syncBase(\(plans ? Self.baseColumns : Self.basePlanlessColumns))", columns: plans ? baseColumnList.count : basePlanlessCount,
            then: AppDatabase.isEmpty(db, "syncBase") ? "" : setBaseConflictClause
        )
        try setBase.insert(count: bases.count) { statement, row, first in
            bind(bases[bases.startIndex + row], key: keys[row], withPlan: plans, to: statement, at: first)
        }
    }

    /// Binds `base`'s values, in `baseColumns`' order (the first 19 only
    /// without its plan), from parameter `first` on.
    private static func bind(_ base: SyncBase, key: String, withPlan plan: Bool, to statement: DirectStatement, at first: Int32) {
        for (offset, value) in base.leadingValues(key: key).enumerated() { statement.bind(first + Int32(offset), value) }
        statement.bind(base.fields, times: base.editedAt, from: first + Int32(baseLeadingColumns.count), withPlan: plan)
        guard plan else { return }
        for (offset, value) in base.trailingValues.enumerated() {
            statement.bind(first + Int32(basePlanlessCount + 2 * TodoField.planned.count + offset), value)
        }
    }

    /// The columns of a base before its fields, and after them.
    /// (`SyncBase(row:)` reads them by these places.)
    private static let baseLeadingColumns = ["todoId", "remoteId", "remoteVersion", "createdAt", "completedAt"]
    private static let baseTrailingColumns = ["foreignTags", "remoteUID"]

    /// The columns of a base, as `setBaseSQL` and the bulk insert of pulled
    /// bases write them: those before its fields, the fields outside the plan
    /// with their edit times, the plan's (`TodoField`), and those after.
    private static let baseColumnList = baseLeadingColumns
        + TodoField.unplanned.map(\.column) + TodoField.unplanned.map(\.editedAtColumn)
        + TodoField.planned.map(\.column) + TodoField.planned.map(\.editedAtColumn) + baseTrailingColumns

    static let baseColumns = baseColumnList.joined(separator: ", ")

    /// Where `SyncBase(row:)` finds the columns after the fields.
    static let baseTrailingPlace = baseColumnList.count - baseTrailingColumns.count

    /// Where `SyncBase(row:)` finds each field and its edit time.
    static let basePlaces = TodoField.allCases.map { field in
        (field: field, value: baseColumnList.firstIndex(of: field.column)!, time: baseColumnList.firstIndex(of: field.editedAtColumn)!)
    }

    /// How many columns a base without its plan fills: all but the plan's
    /// and those after them.
    static let basePlanlessCount = baseLeadingColumns.count + 2 * TodoField.unplanned.count

    static let basePlanlessColumns = baseColumnList.prefix(basePlanlessCount).joined(separator: ", ")

    static let setBaseSQL = """
        INSERT INTO syncBase(\(baseColumns))
        VALUES (\(Array(repeating: "?", count: baseColumnList.count).joined(separator: ", ")))
        \(setBaseConflictClause)
        """

    static let setBaseConflictClause = "ON CONFLICT(todoId) DO UPDATE SET "
        + baseColumnList.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// A base's values, in `baseColumns`' order.
    static func values(of base: SyncBase, key: String) -> [DatabaseValue] {
        var values = base.leadingValues(key: key)
        values.reserveCapacity(baseColumnList.count)
        for group in [TodoField.unplanned, TodoField.planned] {
            for field in group { values.append(base.fields.column(field)) }
            for field in group { values.append(base.editedAt.column(field)) }
        }
        return values + base.trailingValues
    }
}

extension SyncBase {
    /// The values of `baseLeadingColumns`, for the todo stored under `key`.
    fileprivate func leadingValues(key: String) -> [DatabaseValue] {
        [
            key.databaseValue, remoteId.databaseValue, remoteVersion.map(Int64.init).databaseValue,
            createdAt?.millisecondsSince1970.databaseValue ?? .null, completedAt?.millisecondsSince1970.databaseValue ?? .null,
        ]
    }

    /// The values of `baseTrailingColumns`.
    fileprivate var trailingValues: [DatabaseValue] { [TagList.encode(foreignTags).databaseValue, remoteUID.databaseValue] }
}

// MARK: - Reading a base

extension SyncBase {
    /// Decodes a row of `SQLiteSyncStore.baseColumns`, by position.
    init?(row: Row) {
        guard let id = UUID(parsing: row[0]) else { return nil }
        var fields = SyncFields(text: "", isDone: false)
        var times = FieldTimes()
        for place in SQLiteSyncStore.basePlaces {
            fields.set(place.field, in: row, at: place.value)
            times.set(place.field, in: row, at: place.time)
        }
        let trailing = SQLiteSyncStore.baseTrailingPlace
        self.init(
            todoId: id, remoteId: row[1], fields: fields, remoteVersion: row[2], editedAt: times,
            createdAt: Self.time(row[3]), completedAt: Self.time(row[4]),
            foreignTags: (row[trailing] as String?).map(TagList.decode) ?? [], remoteUID: row[trailing + 1]
        )
    }

    private static func time(_ milliseconds: Int64?) -> Date? {
        milliseconds.map(Date.init(millisecondsSince1970:))
    }
}
