import Foundation
import Testing
@testable import TodoSync

/// Seeded, reproducible random runs: a failing seed replays exactly.
/// Serialized: hundreds of cases at once would starve the other suites'
/// time-limited waits on the two cores CI has.
@Suite(.serialized)
struct SyncModelTests {
    static let seeds = (1...100).map { UInt64($0) }

    @Test(arguments: seeds)
    func jsonServerV1Converges(seed: UInt64) async throws {
        let server = FakeJSONServer(.v1, seed: seed)
        try await SyncModel(seed: seed, steps: 40, faults: false, server: "http://fake", serverTransport: server) { _ in }.run()
    }

    @Test(arguments: seeds)
    func jsonServerV017Converges(seed: UInt64) async throws {
        let server = FakeJSONServer(.v017, seed: seed)
        try await SyncModel(seed: seed, steps: 40, faults: false, server: "http://fake", serverTransport: server) { _ in }.run()
    }

    @Test(arguments: (1...200).map { UInt64($0) })
    func convergesAfterFaultsAndInterruptions(seed: UInt64) async throws {
        let server = FakeJSONServer(seed % 2 == 0 ? .v1 : .v017, seed: seed)
        try await SyncModel(seed: seed, steps: 60, faults: true, server: "http://fake", serverTransport: server) { on in
            await server.setFaultRate(on ? 0.15 : 0)
        }.run()
    }
}
