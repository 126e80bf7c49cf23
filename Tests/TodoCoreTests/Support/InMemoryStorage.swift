import Foundation
import Synchronization
import TodoCore

/// Storage in memory, for exact inputs and injected faults.
actor InMemoryStorage: TodoStorage {
    private(set) var items: [TodoItem]
    private(set) var storedQuery = ""
    /// When set, every call fails with it.
    var failure: TodoError?

    init(items: [TodoItem] = []) {
        self.items = items
    }

    func fail(with error: TodoError?) {
        failure = error
    }

    func fetchTodos(_ request: TodoRequest) async throws -> [TodoItem] {
        try check()
        let matching = items
            .filter { request.status.includes($0) && $0.matches(request.query) }
            .sorted { $0.createdAt > $1.createdAt }
        return Array(matching.prefix(request.limit ?? .max))
    }

    func resolve(idPrefixes: [String]) async throws -> [TodoItem] {
        try check()
        return try idPrefixes.map { prefix in
            let found = items.filter { $0.idString.hasPrefix(prefix) }
            guard let first = found.first else { throw TodoError.notFound(prefix) }
            guard found.count == 1 else { throw TodoError.ambiguousID(prefix, matches: found.count) }
            return first
        }
    }

    func insert(_ item: TodoItem) async throws {
        try check()
        items.append(item)
    }

    func update(_ changed: [TodoItem]) async throws {
        try check()
        for item in changed where !items.contains(where: { $0.id == item.id }) {
            throw TodoError.notFound(item.idString)
        }
        for item in changed {
            items[items.firstIndex { $0.id == item.id }!] = item
        }
    }

    func delete(ids: [TodoItem.ID]) async throws {
        try check()
        for id in ids where !items.contains(where: { $0.id == id }) {
            throw TodoError.notFound(id.uuidString.lowercased())
        }
        items.removeAll { ids.contains($0.id) }
    }

    func lastQuery() async throws -> String {
        try check()
        return storedQuery
    }

    func setLastQuery(_ query: String) async throws {
        try check()
        storedQuery = query
    }

    private func check() throws {
        if let failure { throw failure }
    }
}

/// A clock and UUID source that give the same values on every run: the clock
/// moves one second per reading, UUIDs count up from ...0001.
final class FixedEnvironment: Sendable {
    let start = Date(millisecondsSince1970: 1_790_000_000_000)
    private let ticks = Counter()
    private let uuids = Counter()

    /// The date the clock gives on its `n`th reading.
    func date(_ n: Int) -> Date {
        Date(millisecondsSince1970: start.millisecondsSince1970 + Int64(n) * 1000)
    }

    var environment: TodoEnvironment {
        let ticks = ticks
        let uuids = uuids
        let start = start.millisecondsSince1970
        return TodoEnvironment(
            now: { Date(millisecondsSince1970: start + Int64(ticks.next()) * 1000) },
            uuid: { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", uuids.next()))! }
        )
    }
}

/// A thread-safe counter for the fixed environment.
final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
