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
            db, into: "syncBase(\(plans ? Self.baseColumns : Self.basePlanlessColumns))", columns: plans ? 33 : 19,
            then: AppDatabase.isEmpty(db, "syncBase") ? "" : setBaseConflictClause
        )
        try setBase.insert(count: bases.count) { statement, row, first in
            bind(bases[bases.startIndex + row], key: keys[row], withPlan: plans, to: statement, at: first)
        }
    }

    /// Binds `base`'s values, in `baseColumns`' order (the first 19 only
    /// without its plan), from parameter `first` on.
    private static func bind(_ base: SyncBase, key: String, withPlan plan: Bool, to statement: DirectStatement, at first: Int32) {
        statement.bind(first, key)
        statement.bind(first + 1, base.remoteId)
        statement.bind(first + 2, base.fields.text)
        statement.bind(first + 3, base.fields.isDone)
        statement.bind(first + 4, base.remoteVersion.map(Int64.init))
        statement.bind(first + 5, base.editedAt.text?.millisecondsSince1970)
        statement.bind(first + 6, base.editedAt.done?.millisecondsSince1970)
        statement.bind(first + 7, base.fields.due?.text)
        statement.bind(first + 8, base.fields.priority.map { Int64($0.rank) })
        statement.bind(first + 9, TagList.encode(base.fields.tags))
        statement.bind(first + 10, base.fields.note)
        statement.bind(first + 11, base.fields.recurrence?.description)
        statement.bind(first + 12, base.editedAt.due?.millisecondsSince1970)
        statement.bind(first + 13, base.editedAt.priority?.millisecondsSince1970)
        statement.bind(first + 14, base.editedAt.tags?.millisecondsSince1970)
        statement.bind(first + 15, base.editedAt.note?.millisecondsSince1970)
        statement.bind(first + 16, base.editedAt.recurrence?.millisecondsSince1970)
        statement.bind(first + 17, base.createdAt?.millisecondsSince1970)
        statement.bind(first + 18, base.completedAt?.millisecondsSince1970)
        guard plan else { return }
        statement.bind(first + 19, base.fields.project)
        statement.bind(first + 20, base.fields.wait?.text)
        statement.bind(first + 21, base.fields.scheduled?.text)
        statement.bind(first + 22, base.fields.until?.text)
        statement.bind(first + 23, base.editedAt.project?.millisecondsSince1970)
        statement.bind(first + 24, base.editedAt.wait?.millisecondsSince1970)
        statement.bind(first + 25, base.editedAt.scheduled?.millisecondsSince1970)
        statement.bind(first + 26, base.editedAt.until?.millisecondsSince1970)
        statement.bind(first + 27, base.fields.parent?.lowercasedString)
        statement.bind(first + 28, IDList.encode(base.fields.blockedBy))
        statement.bind(first + 29, base.editedAt.parent?.millisecondsSince1970)
        statement.bind(first + 30, base.editedAt.blockedBy?.millisecondsSince1970)
        statement.bind(first + 31, TagList.encode(base.foreignTags))
        statement.bind(first + 32, base.remoteUID)
    }

    /// The columns of a base, as `setBaseSQL` and the bulk insert of pulled bases write them.
    static let baseColumns = basePlanlessColumns + """
        , project, wait, scheduled, until, projectEditedAt, waitEditedAt, scheduledEditedAt, untilEditedAt, \
        parent, blockedBy, parentEditedAt, blockedByEditedAt, foreignTags, remoteUID
        """

    /// The first 19 of them: all but the plan's (`TodoPlan`).
    static let basePlanlessColumns = """
        todoId, remoteId, text, isDone, remoteVersion, textEditedAt, doneEditedAt, \
        due, priority, tags, note, recurrence, \
        dueEditedAt, priorityEditedAt, tagsEditedAt, noteEditedAt, recurrenceEditedAt, createdAt, completedAt
        """

    static let setBaseSQL = """
        INSERT INTO syncBase(\(baseColumns))
        VALUES (\(Array(repeating: "?", count: 33).joined(separator: ", ")))
        \(setBaseConflictClause)
        """

    static let setBaseConflictClause = """
        ON CONFLICT(todoId) DO UPDATE SET remoteId = excluded.remoteId, text = excluded.text,
            isDone = excluded.isDone, remoteVersion = excluded.remoteVersion,
            textEditedAt = excluded.textEditedAt, doneEditedAt = excluded.doneEditedAt,
            due = excluded.due, priority = excluded.priority, tags = excluded.tags, note = excluded.note,
            recurrence = excluded.recurrence, dueEditedAt = excluded.dueEditedAt,
            priorityEditedAt = excluded.priorityEditedAt, tagsEditedAt = excluded.tagsEditedAt,
            noteEditedAt = excluded.noteEditedAt, recurrenceEditedAt = excluded.recurrenceEditedAt,
            createdAt = excluded.createdAt, completedAt = excluded.completedAt,
            project = excluded.project, wait = excluded.wait, scheduled = excluded.scheduled, until = excluded.until,
            projectEditedAt = excluded.projectEditedAt, waitEditedAt = excluded.waitEditedAt,
            scheduledEditedAt = excluded.scheduledEditedAt, untilEditedAt = excluded.untilEditedAt,
            parent = excluded.parent, blockedBy = excluded.blockedBy,
            parentEditedAt = excluded.parentEditedAt, blockedByEditedAt = excluded.blockedByEditedAt,
            foreignTags = excluded.foreignTags, remoteUID = excluded.remoteUID
        """

}

// MARK: - Reading a base

extension SyncBase {
    init?(row: Row) {
        guard let id = UUID(parsing: row["todoId"]) else { return nil }
        self.init(
            todoId: id,
            remoteId: row["remoteId"],
            fields: SyncFields(
                text: row["text"], isDone: row["isDone"],
                due: (row["due"] as String?).flatMap(TodoDue.init(text:)),
                priority: (row["priority"] as Int?).flatMap(TodoPriority.init(rank:)),
                tags: (row["tags"] as String?).map(TagList.decode) ?? [],
                note: row["note"],
                recurrence: (row["recurrence"] as String?).flatMap(TodoRepeat.init(parsing:)),
                project: row["project"],
                wait: (row["wait"] as String?).flatMap(TodoDue.init(text:)),
                scheduled: (row["scheduled"] as String?).flatMap(TodoDue.init(text:)),
                until: (row["until"] as String?).flatMap(TodoDue.init(text:)),
                parent: (row["parent"] as String?).flatMap(UUID.init(parsing:)),
                blockedBy: (row["blockedBy"] as String?).map(IDList.decode) ?? []
            ),
            remoteVersion: row["remoteVersion"],
            editedAt: FieldTimes(
                text: Self.time(row["textEditedAt"]), done: Self.time(row["doneEditedAt"]),
                due: Self.time(row["dueEditedAt"]), priority: Self.time(row["priorityEditedAt"]),
                tags: Self.time(row["tagsEditedAt"]), note: Self.time(row["noteEditedAt"]),
                recurrence: Self.time(row["recurrenceEditedAt"]), project: Self.time(row["projectEditedAt"]),
                wait: Self.time(row["waitEditedAt"]), scheduled: Self.time(row["scheduledEditedAt"]),
                until: Self.time(row["untilEditedAt"]), parent: Self.time(row["parentEditedAt"]),
                blockedBy: Self.time(row["blockedByEditedAt"])
            ),
            createdAt: Self.time(row["createdAt"]),
            completedAt: Self.time(row["completedAt"]),
            foreignTags: (row["foreignTags"] as String?).map(TagList.decode) ?? [],
            remoteUID: row["remoteUID"]
        )
    }

    private static func time(_ milliseconds: Int64?) -> Date? {
        milliseconds.map(Date.init(millisecondsSince1970:))
    }
}
