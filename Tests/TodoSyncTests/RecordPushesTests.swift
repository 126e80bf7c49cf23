import Foundation
import GRDB
import PropertyBased
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// A sync that pushes records each push's base in bulk (`recordPushes`): it
/// must leave every table exactly as applying the same writes one by one
/// leaves it, and refuse the same writes (a todo changed here since).
@Suite("Recording pushes")
struct RecordPushesTests {
    @Test func recordingPushesInBulkLeavesWhatApplyingThemOneByOneLeaves() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int.max).array(of: 0...60)) { codes in
            let items = StoredContents.todos(codes.count, seed: UInt64(codes.first ?? 1))
            let bulk = try AppDatabase.inMemory()
            let oneByOne = try AppDatabase.inMemory()
            for db in [bulk, oneByOne] {
                for (item, code) in zip(items, codes) {
                    try db.insertTodo(item)
                    if code % 3 == 0 { try await SQLiteSyncStore(db).markCreateInFlight(item.id) }
                    // A base already there (an update's push replaces it).
                    if code % 4 == 0 {
                        _ = try await SQLiteSyncStore(db).apply([SyncWrite(todoId: item.id, expectedRev: nil, base: .set(Self.base(item, code: code + 1)))])
                    }
                }
            }
            let revs = Dictionary(try await SQLiteSyncStore(bulk).pendingChanges().map { ($0.todoId, $0.rev) }, uniquingKeysWith: { $1 })
            let writes = zip(items, codes).map { item, code in Self.write(item, code: code, rev: revs[item.id]) }
            let inBulk = try await bulk.dbWriter.write { db in try SQLiteSyncStore.apply(db, writes, recordPushesInBulk: true) }
            let alone = try await oneByOne.dbWriter.write { db in try SQLiteSyncStore.apply(db, writes, recordPushesInBulk: false) }
            #expect(inBulk == alone, "\(codes)")
            #expect(try Self.tables(bulk) == Self.tables(oneByOne), "\(codes)")
        }
    }

    /// The base a push records: every column set by the code.
    static func base(_ item: TodoItem, code: Int) -> SyncBase {
        var fields = item.syncFields
        if code % 2 == 0 { fields.tags = ["home", "t\(code % 5)"] }
        if code % 5 == 0 { fields.note = "note \(code % 11)" }
        let time = Date(millisecondsSince1970: Int64(code % 100_000))
        return SyncBase(
            todoId: item.id, remoteId: "r\(code % 1_000)", fields: fields,
            remoteVersion: code % 7 == 0 ? nil : code % 7,
            editedAt: FieldTimes([.text: time, .tags: time].merging(code % 3 == 0 ? [:] : [.done: time]) { $1 })
        )
    }

    /// Mostly pushes (some of a todo changed here since, some expecting no
    /// queued change); the rest other kinds of writes, applied one by one.
    static func write(_ item: TodoItem, code: Int, rev: Int64?) -> SyncWrite {
        let base = base(item, code: code)
        switch code % 12 {
        case 0...6:
            return SyncWrite(todoId: item.id, expectedRev: rev, base: .set(base))
        case 7:
            return SyncWrite(todoId: item.id, expectedRev: rev.map { $0 + 1 }, base: .set(base))
        case 8:
            return SyncWrite(todoId: item.id, expectedRev: nil, base: .set(base))
        case 9:
            return SyncWrite(todoId: item.id, expectedRev: rev, base: .set(base), awaitsListing: true)
        case 10:
            var changed = item
            changed.text += " (merged)"
            return SyncWrite(todoId: item.id, expectedRev: rev, todo: .save(changed), base: .set(base))
        default:
            return SyncWrite(todoId: item.id, expectedRev: rev, todo: .delete, base: .remove)
        }
    }

    /// Every row of the tables a write touches.
    static func tables(_ db: AppDatabase) throws -> [String: [String]] {
        let names = ["todo", "syncBase", "syncPending", "syncCreateInFlight", "syncUnconfirmed", "syncConflict"]
        return try db.dbWriter.read { conn in
            try Dictionary(uniqueKeysWithValues: names.map { name in
                (name, try Row.fetchAll(conn, sql: "SELECT * FROM \(name) ORDER BY 1").map(\.description))
            })
        }
    }
}
