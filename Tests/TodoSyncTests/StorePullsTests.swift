import Foundation
import GRDB
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// A first sync stores what it pulls in bulk; it must leave exactly what
/// applying each pull as a single sync step leaves.
@Suite("Storing pulls")
struct StorePullsTests {
    static func todos(_ count: Int, seed: UInt64 = 7) -> [TodoItem] { StoredContents.todos(count, seed: seed) }
    static func contents(_ db: AppDatabase) throws -> StoredContents { try StoredContents(db) }
    static func checkSearchIndex(_ db: AppDatabase) throws { try StoredContents.checkSearchIndex(db) }
    static func schema(_ db: AppDatabase) throws -> [String] { try StoredContents.schema(db) }
    static func checkIntegrity(_ db: AppDatabase) throws { #expect(try StoredContents.integrity(db) == ["ok"]) }

    /// What a first sync pulling `items` stores: each todo's base.
    static func pulls(_ items: [TodoItem]) -> [SyncBase] {
        items.enumerated().map { index, item in
            SyncBase(todoId: item.id, remoteId: index % 2 == 0 ? item.idString : "\(index)", fields: item.syncFields,
                     remoteVersion: index % 3 == 0 ? nil : index)
        }
    }

    /// The same pulls as the writes of single sync steps: a new todo saved with its base.
    static func writes(_ pulls: [SyncBase], at time: Date) -> [SyncWrite] {
        pulls.map { pull in
            SyncWrite(todoId: pull.todoId, expectedRev: nil, todo: .save(SyncPull(base: pull, at: time).item), base: .set(pull))
        }
    }

    static let pulledAt = Date(millisecondsSince1970: 1_700_000_000_000)

    @Test(arguments: [false, true])
    func storingPullsInBulkLeavesWhatApplyingThemOneByOneLeaves(plans: Bool) async throws {
        let items = StoredContents.todos(1_500, plans: plans)
        let bulk = try AppDatabase.inMemory()
        let oneByOne = try AppDatabase.inMemory()
        // A todo added here meanwhile stays queued; one with a create in flight is cleared.
        let local = TodoItem(id: UUID(), text: "added here", createdAt: Date(millisecondsSince1970: 5))
        for db in [bulk, oneByOne] {
            try db.insertTodo(local)
            try await SQLiteSyncStore(db).markCreateInFlight(items[3].id)
        }
        var pulls = Self.pulls(items)
        // Pulled while here meanwhile: refused, nothing written for it.
        pulls[20] = SyncBase(todoId: local.id, remoteId: "r20", fields: SyncFields(text: "from the server", isDone: true))

        let stored = try await SQLiteSyncStore(bulk).storePulls(pulls, at: Self.pulledAt)
        #expect(stored.filter { !$0 }.count == 1 && !stored[20])
        for (pull, write) in zip(pulls, Self.writes(pulls, at: Self.pulledAt)) where pull.todoId != local.id {
            #expect(try await SQLiteSyncStore(oneByOne).apply([write]) == [true])
        }
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending == [local.idString])
        #expect(try await SQLiteSyncStore(bulk).createsInFlight() == 0)
        #expect(try await SQLiteSyncStore(bulk).baseCount() == 1_499)
        try Self.checkSearchIndex(bulk)
    }

    /// A base left for a todo that is neither here nor queued (no path of
    /// sync leaves one, but a file may hold one) is replaced by the pull, as
    /// `apply` replaces it, in bulk or not: the pull is the server's state now.
    @Test(arguments: [40, 1_500])
    func aPullOverALeftoverBaseReplacesIt(count: Int) async throws {
        let items = Self.todos(count, seed: 13)
        var pulls = Self.pulls(items)
        pulls[7].fields.text = "new title"
        let db = try AppDatabase.inMemory()
        try await db.dbWriter.write { conn in
            try conn.execute(sql: "INSERT INTO syncBase(todoId, remoteId, text, isDone) VALUES (?, 'old', 'old title', 0)",
                             arguments: [items[7].idString])
        }
        #expect(try await SQLiteSyncStore(db).storePulls(pulls, at: Self.pulledAt).allSatisfy { $0 })
        let reference = try AppDatabase.inMemory()
        for write in Self.writes(pulls, at: Self.pulledAt) { _ = try await SQLiteSyncStore(reference).apply([write]) }
        #expect(try Self.contents(db) == Self.contents(reference))
        #expect(try await SQLiteSyncStore(db).baseCount() == count)
    }

    @Test func aPullOfATodoQueuedHereOrRepeatedIsNotStored() async throws {
        let db = try AppDatabase.inMemory()
        let items = Self.todos(30, seed: 12)
        try db.insertTodo(items[0])
        try db.deleteTodos(ids: [items[0].id]) // deleted here: the delete is queued
        var pulls = Self.pulls(Array(items.prefix(20)))
        pulls.append(pulls[5]) // the same todo twice
        let stored = try await SQLiteSyncStore(db).storePulls(pulls, at: Self.pulledAt)
        #expect(stored == [false] + Array(repeating: true, count: 19) + [false])
        #expect(try db.fetchListed(TodoRequest(status: .all)).count == 19)
        #expect(try await SQLiteSyncStore(db).pendingChanges().map(\.todoId) == [items[0].id])
        #expect(try await SQLiteSyncStore(db).baseCount() == 19)
    }

    /// Every column of every row sync writes, as text.
    static func rows(_ db: AppDatabase) throws -> [String] {
        try db.dbWriter.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM todo ORDER BY seq").map(\.description)
                + Row.fetchAll(db, sql: "SELECT * FROM syncBase ORDER BY rowid").map(\.description)
        }
    }

    /// With plans or without: a batch with none leaves the plan's columns to
    /// their default and keeps the partial indexes on them as they are.
    @Test(arguments: [false, true])
    func aFirstSyncIntoAnEmptyDatabaseLeavesWhatOneByOneLeaves(plans: Bool) async throws {
        // As a sync hands them: in the order of the IDs' text.
        let items = StoredContents.todos(1_234, seed: 9, plans: plans).sorted { $0.idString < $1.idString }
        let pulls = Self.pulls(items)
        let bulk = try AppDatabase.inMemory()
        let oneByOne = try AppDatabase.inMemory()
        let schema = try Self.schema(bulk)
        #expect(try await SQLiteSyncStore(bulk).storePulls(pulls, at: Self.pulledAt) == Array(repeating: true, count: items.count))
        #expect(try Self.schema(bulk) == schema)
        try Self.checkIntegrity(bulk)
        for write in Self.writes(pulls, at: Self.pulledAt) { _ = try await SQLiteSyncStore(oneByOne).apply([write]) }
        #expect(try Self.rows(bulk) == Self.rows(oneByOne))
        #expect(try Self.contents(bulk) == Self.contents(oneByOne))
        #expect(try Self.contents(bulk).pending.isEmpty)
        try Self.checkSearchIndex(bulk)

        // Not in order: the same end state.
        let shuffled = try AppDatabase.inMemory()
        #expect(try await SQLiteSyncStore(shuffled).storePulls(pulls.reversed(), at: Self.pulledAt).allSatisfy { $0 })
        let (inOrder, reversed) = (try Self.contents(oneByOne), try Self.contents(shuffled))
        #expect(reversed.listed.sorted { $0.item.idString < $1.item.idString } == inOrder.listed.sorted { $0.item.idString < $1.item.idString })
        #expect(reversed.bases == inOrder.bases && reversed.pending.isEmpty)
        // Too few for the bulk path: stored one by one, alike.
        let (few, fewOneByOne) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
        #expect(try await SQLiteSyncStore(few).storePulls(Array(pulls.prefix(40)), at: Self.pulledAt).allSatisfy { $0 })
        for write in Self.writes(Array(pulls.prefix(40)), at: Self.pulledAt) { _ = try await SQLiteSyncStore(fewOneByOne).apply([write]) }
        #expect(try Self.rows(few) == Self.rows(fewOneByOne))
        #expect(try Self.contents(few).pending.isEmpty)
    }
}
