import Foundation
import PropertyBased
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// A full list read with no base stored (a first sync) is turned into entries
/// by sorting the items once; it must give exactly the snapshot the general
/// path gives without bases.
struct FirstSnapshotTests {
    /// Local todo ids, spread over the first byte so that sorting matters.
    static let pool: [UUID] = (0..<6).map { index in
        UUID(uuidString: String(format: "%02x%06x-0000-4000-8000-%012x", (index * 167) % 256, index, index))!
    }

    /// An item of the list: with a UUID id (in either case), a plain id (its
    /// todo derived from it), or a plain id with a marker naming a todo. Few
    /// ids, so the same todo often comes twice.
    static func item(_ code: Int) -> RemoteTodo {
        let fields = SyncFields(text: "todo \(code % 7)", isDone: code % 2 == 0)
        let todo = pool[code / 4 % pool.count]
        return switch code % 4 {
        case 0: RemoteTodo(id: todo.uuidString.lowercased(), fields: fields, version: code % 3)
        case 1: RemoteTodo(id: "\(code / 4 % 5)", fields: fields)
        case 2: RemoteTodo(id: "n\(code / 4 % 5)", fields: fields, clientId: pool[code / 8 % pool.count])
        default: RemoteTodo(id: todo.uuidString, fields: fields, version: 1)
        }
    }

    @Test func aFirstSnapshotIsTheGeneralSnapshotWithoutBases() async {
        let programs = Gen.int(in: 0...100_000).array(of: 1...24)
        var duplicates = 0
        await propertyCheck(count: 300, input: programs) { program in
            let mask = program[0]
            let db = try AppDatabase.inMemory()
            // Todos here, queued to be pushed; and todos learnt while syncing.
            for (index, id) in Self.pool.enumerated() where mask >> index & 1 == 1 {
                try db.insertTodo(TodoItem(id: id, text: "here \(index)", createdAt: Date(millisecondsSince1970: Int64(index))))
            }
            var known: [UUID: RemoteTodo] = [:]
            for (index, id) in Self.pool.enumerated() where mask >> (index + 6) & 1 == 1 {
                known[id] = RemoteTodo(id: "k\(index)", fields: SyncFields(text: "known \(index)", isDone: false))
            }
            let listing = RemoteCollection.Listing(
                items: program.dropFirst().map(Self.item), skipped: ["item #9"],
                hasUnidentified: mask % 3 == 0, cursor: mask % 2 == 0 ? "\(mask)" : nil
            )
            let service = SyncService(store: SQLiteSyncStore(db), configuration: SyncConfiguration(server: "http://fake"), transport: FakeJSONServer(.v1))
            let first = try await service.firstSnapshot(listing, server: RemoteCapabilities(kind: .jsonServer), known: known)
            let general = try await service.fullSnapshot(listing, server: RemoteCapabilities(kind: .jsonServer), known: known, bases: [])
            #expect(first.entries == general.entries, "\(program)")
            #expect(first.skipped == general.skipped, "\(program)")
            #expect(first.cursor == general.cursor && first.server == general.server)
            if first.skipped.count > 1 { duplicates += 1 }
        }
        // Not vacuous: many lists held a todo twice.
        #expect(duplicates > 100, "\(duplicates) of 300")
    }

    @Test func aFirstSyncWithTwoCopiesOfATodoKeepsTheFirstAndNamesTheOther() async throws {
        let server = FakeJSONServer(.v1)
        let id = Self.pool[3].uuidString.lowercased()
        await server.insert(["id": .string(id), "title": .string("first copy"), "completed": .bool(false)])
        await server.insert(["id": .string("7"), "title": .string("plain"), "completed": .bool(true)])
        await server.insert(["id": .string("8"), "clientId": .string(id), "title": .string("second copy"), "completed": .bool(false)])
        let replica = try Replica(transport: server)
        let summary = try await replica.sync()
        #expect(summary.skipped == ["8 (a second copy of \(id))"])
        #expect(try replica.todos().map(\.text).sorted() == ["first copy", "plain"])
    }
}
