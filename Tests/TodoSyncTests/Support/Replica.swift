import Foundation
import TodoCore
import TodoStorage
@testable import TodoSync

/// One device: its own database, synced through a transport.
struct Replica: Sendable {
    let db: AppDatabase
    let transport: any HTTPTransport
    let server: String
    /// The paging the user named for this server, if any.
    let paging: ListPaging?
    /// The account on a CalDAV server, if it asks for one.
    let login: CalDAVLogin?

    init(transport: any HTTPTransport, server: String = "http://fake", paging: ListPaging? = nil, login: CalDAVLogin? = nil) throws {
        db = try AppDatabase.inMemory()
        self.transport = transport
        self.server = server
        self.paging = paging
        self.login = login
    }

    func service(
        force: Bool = false, prefer: ConflictPreference = .newest, names: FieldNames = FieldNames(), now: Date? = nil,
        holding: Bool = false
    ) -> SyncService {
        var configuration = SyncConfiguration(server: server, names: names, prefer: prefer, force: force, paging: paging, login: login)
        configuration.holdsRailedDeletions = holding
        return SyncService(
            store: SQLiteSyncStore(db),
            configuration: configuration,
            // Pauses of nothing, so no budget of seconds: under a loaded run a write that
            // waited its turn behind others after a 423 would run out of one.
            transport: RetryingTransport(transport, delays: [.zero, .zero], budget: .seconds(3_600), sleep: { _ in }),
            now: { now ?? Date() }
        )
    }

    @discardableResult
    func sync(force: Bool = false, dryRun: Bool = false, now: Date? = nil) async throws -> SyncSummary {
        try await service(force: force, now: now).sync(dryRun: dryRun) { _ in }
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

extension SyncStep.Local {
    /// The fields a `.save` stores, for comparing with the fields expected.
    var savedFields: SyncFields? {
        if case let .save(item) = self { item.syncFields } else { nil }
    }
}
