import Foundation
import TodoCore
import TodoStorage
@testable import TodoSync

/// One device: its own database, synced through a transport.
struct Replica: Sendable {
    let db: AppDatabase
    let transport: any HTTPTransport
    let server: String

    init(transport: any HTTPTransport, server: String = "http://fake") throws {
        db = try AppDatabase.inMemory()
        self.transport = transport
        self.server = server
    }

    func service(force: Bool = false, prefer: ConflictPreference = .newest, names: FieldNames = FieldNames()) -> SyncService {
        SyncService(
            store: db,
            configuration: SyncConfiguration(server: server, names: names, prefer: prefer, force: force),
            transport: RetryingTransport(transport, delays: [.zero, .zero], sleep: { _ in })
        )
    }

    @discardableResult
    func sync(force: Bool = false, dryRun: Bool = false) async throws -> SyncSummary {
        try await service(force: force).sync(dryRun: dryRun) { _ in }
    }

    func add(_ text: String, id: UUID = UUID()) throws {
        try db.insertTodo(TodoItem(id: id, text: text, createdAt: Date()))
    }

    func todos() throws -> [TodoItem] {
        try db.fetchListed(TodoRequest()).map(\.item).sorted { $0.idString < $1.idString }
    }

    /// What this replica holds, comparable across replicas.
    func contents() throws -> [String: SyncFields] {
        Dictionary(try todos().map { ($0.idString, $0.syncFields) }, uniquingKeysWith: { first, _ in first })
    }
}
