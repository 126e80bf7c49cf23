import Foundation
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// The sync runner against in-memory json-servers: two-way sync, tolerance, safety.
struct SyncServiceTests {
    @Test(arguments: [FakeJSONServer.Flavor.v1, .v017])
    func twoReplicasExchangeAddsEditsAndDeletes(flavor: FakeJSONServer.Flavor) async throws {
        let server = FakeJSONServer(flavor)
        let a = try Replica(transport: server)
        let b = try Replica(transport: server)
        try a.add("buy milk")
        try a.add("call the bank")
        try await a.sync()
        try await b.sync()
        #expect(try b.contents() == a.contents())
        let milk = try #require(try b.todos().first { $0.text == "buy milk" })
        try b.db.updateTodos([milk.marking(done: true, at: Date())])
        let bank = try #require(try a.todos().first { $0.text == "call the bank" })
        try a.db.deleteTodos(ids: [bank.id])
        try await b.sync()
        try await a.sync()
        try await b.sync()
        #expect(try a.contents() == b.contents())
        #expect(try a.todos().map(\.text) == ["buy milk"])
        #expect(try a.todos().first?.isDone == true)
        #expect(await server.items.count == 1)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 0)
    }

    @Test func aFirstSyncOfManyTodosStoresEachOnceAndQueuesNone() async throws {
        let server = FakeJSONServer(.v1)
        for index in 0..<1_200 {
            await server.insert(["id": .string("item-\(index)"), "title": .string("todo \(index) Crème"), "completed": .bool(index % 2 == 0)])
        }
        let a = try Replica(transport: server)
        try a.add("added here")
        let first = try await a.sync()
        #expect(first.pulled == 1_200 && first.pushed == 1)
        #expect(try a.todos().count == 1_201)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 0)
        #expect(try await SQLiteSyncStore(a.db).baseCount() == 1_201)
        #expect(try a.db.fetchListed(TodoRequest(query: "todo 1199 crè")).map(\.item.text) == ["todo 1199 Crème"])
        let again = try await a.sync()
        #expect(again.pulled == 0 && again.pushed == 0 && again.steps.isEmpty)
        let b = try Replica(transport: server)
        try await b.sync()
        #expect(try b.contents() == a.contents())
    }

    @Test func titleEditedHereAndDoneThereBothSurvive() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        let b = try Replica(transport: server)
        try a.add("draft")
        try await a.sync()
        try await b.sync()
        let item = try #require(try a.todos().first)
        try a.db.updateTodos([item.editing(text: "final", at: Date())])
        try b.db.updateTodos([item.marking(done: true, at: Date())])
        try await a.sync()
        let summary = try await b.sync()
        try await a.sync()
        #expect(summary.conflicts.isEmpty)
        #expect(try a.todos().first?.syncFields == SyncFields(text: "final", isDone: true))
        #expect(try b.todos().first?.syncFields == SyncFields(text: "final", isDone: true))
    }

    @Test func otherClientsFieldsSurviveAndOnlyChangedFieldsAreSent() async throws {
        let server = FakeJSONServer(.v017)
        await server.insert(["id": .integer(7), "title": .string("shared"), "completed": .string("true"), "userId": .integer(3)])
        let a = try Replica(transport: server)
        try await a.sync()
        let item = try #require(try a.todos().first)
        #expect(item.isDone)
        try a.db.updateTodos([item.editing(text: "renamed", at: Date())])
        try await a.sync()
        let stored = await server.items.first
        #expect(stored?["userId"] == .integer(3))
        #expect(stored?["id"] == .integer(7))
        #expect(stored?["title"] == .string("renamed"))
    }

    @Test func unreadableItemsAreSkippedNeverDeleted() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        try a.add("keep me")
        try await a.sync()
        await server.insert(["title": .string("no id")])
        let summary = try await a.sync()
        #expect(summary.skipped.count == 1)
        #expect(try a.todos().map(\.text) == ["keep me"])
    }

    @Test func customFieldNamesAreUsed() async throws {
        let server = FakeJSONServer(.v1)
        await server.insert(["id": .string("x"), "text": .string("walk"), "done": .integer(1)])
        let a = try Replica(transport: server)
        _ = try await a.service(names: FieldNames(title: "text", completed: "done")).sync(dryRun: false) { _ in }
        #expect(try a.todos().first?.syncFields == SyncFields(text: "walk", isDone: true))
    }

    @Test func dryRunChangesNothingAnywhere() async throws {
        let server = FakeJSONServer(.v1)
        await server.insert(["id": .string("x"), "title": .string("from server")])
        let a = try Replica(transport: server)
        try a.add("from here")
        let summary = try await a.sync(dryRun: true)
        #expect(summary.pulled == 1 && summary.pushed == 1)
        #expect(summary.steps.count == 2)
        #expect(try a.todos().count == 1)
        #expect(await server.items.count == 1)
        #expect(try await SQLiteSyncStore(a.db).pendingCount() == 1)
    }
}

extension SyncServiceTests {
    @Test func anotherServerIsRefusedRatherThanMergedWithTheFirstOnesHistory() async throws {
        let server = FakeJSONServer(.v1)
        let a = try Replica(transport: server)
        try a.add("buy milk")
        try await a.sync()
        let moved = try Replica(transport: FakeJSONServer(.v1), server: "http://elsewhere")
        let service = SyncService(store: SQLiteSyncStore(a.db), configuration: SyncConfiguration(server: moved.server), transport: server)
        await #expect(throws: SyncError.serverChanged(from: "http://fake", to: "http://elsewhere")) {
            try await service.sync(dryRun: false) { _ in }
        }
        #expect(try a.todos().count == 1)
    }
}
