import Foundation
import TestSupport
import Testing
import TodoCore
import TodoStorage
@testable import TodoSync

/// The fast path of a sync with nothing to do: a digest of the list the bases
/// hold. It may skip a sync only where the full path would plan nothing.
struct ListDigestTests {
    @Test(arguments: (1...40).map { UInt64($0) })
    func theDigestSkipsOnlyASyncWhoseFullPlanIsEmpty(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let server = FakeJSONServer(seed % 2 == 0 ? .v1 : .v017, seed: seed)
        let replicas = [try Replica(transport: server), try Replica(transport: server)]
        var skipped = 0
        for step in 0..<80 {
            let replica = replicas[Int(random.next() % 2)]
            let todos = try replica.todos()
            let pick = todos.isEmpty ? nil : todos[Int(random.next() % UInt64(todos.count))]
            switch random.next() % 7 {
            case 0: try replica.add("todo \(step)")
            case 1: if let pick { try replica.db.updateTodos([pick.editing(text: "edit \(step)", at: Date())]) }
            case 2: if let pick { try replica.db.deleteTodos(ids: [pick.id]) }
            case 3:
                // Another client changes or removes an item on the server.
                if let item = await server.items.first, let id = item["id"].flatMap(FakeJSONServer.text) {
                    if random.next() % 2 == 0 {
                        await server.change(id: id, ["title": .string("changed elsewhere \(step)")])
                    } else {
                        await server.remove(id: id)
                    }
                }
            default:
                let service = replica.service(force: true)
                let settings = try await SyncSettings.load(from: SQLiteSyncStore(replica.db))
                let listing = try await service.remote.fetchAll(unlessDigest: nil)
                let quick = try await service.remote.fetchAll(unlessDigest: settings.listDigest)
                let matches = try await service.isUnchanged(listing, digest: settings.listDigest)
                // The quick look (no item read) answers as the digest of the read list does.
                #expect(quick.unchanged == (settings.listDigest == listing.digest.text), "seed \(seed), step \(step)")
                if settings.server == replica.server, matches {
                    skipped += 1
                    let snapshot = try await service.fullSnapshot(listing, server: RemoteCapabilities(kind: .jsonServer), known: [:])
                    #expect(SyncPlanner.plan(snapshot.entries, now: Date()).steps.isEmpty, "seed \(seed), step \(step)")
                }
                _ = try await service.sync(dryRun: false) { _ in }
            }
        }
        #expect(skipped > 0, "seed \(seed): the digest never matched")
    }
}
