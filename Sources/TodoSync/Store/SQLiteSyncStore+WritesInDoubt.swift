import Foundation
import GRDB
import TodoCore
import TodoStorage

// MARK: - Writes a sync is in doubt about
// What a push may have left on the server whether or not its answers came
// (`Migrations/0014_sync_writes_in_doubt.sql`): creates in flight, the sets
// a write sent, and writes sent again after a 404.

extension SQLiteSyncStore {
    public func markInFlight(_ steps: [SyncStep]) async throws {
        let todoIds = steps.compactMap { step in if case .create = step.remote { step.todoId } else { nil } }
        let sets = steps.compactMap { step in SetsInFlight(step).map { (step.todoId.lowercasedString, $0) } }
        guard !todoIds.isEmpty || !sets.isEmpty else { return }
        try write { db in
            // A few hundred rows a statement: a push marks each batch before sending it.
            for start in stride(from: 0, to: sets.count, by: AppDatabase.chunkSize / 3) {
                let chunk = sets[start..<min(start + AppDatabase.chunkSize / 3, sets.count)]
                let rows = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ",")
                var arguments = StatementArguments()
                for (key, sent) in chunk {
                    _ = arguments.append(contentsOf: [key, TagList.encode(sent.tags), IDList.encode(sent.blockedBy)])
                }
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncSetsInFlight(todoId, tags, blockedBy) VALUES \(rows)")
                    .execute(arguments: arguments)
            }
            let keys = todoIds.map(\.lowercasedString)
            for start in stride(from: 0, to: keys.count, by: AppDatabase.chunkSize) {
                let chunk = keys[start..<min(start + AppDatabase.chunkSize, keys.count)]
                let rows = Array(repeating: "(?)", count: chunk.count).joined(separator: ",")
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncCreateInFlight(todoId) VALUES \(rows)")
                    .execute(arguments: StatementArguments(chunk))
            }
        }
    }

    public func dropInFlight(_ todoIds: [UUID]) async throws {
        try write { db in
            for key in todoIds.map(\.lowercasedString) {
                try db.executeCached(sql: "DELETE FROM syncCreateInFlight WHERE todoId = ?", arguments: [key])
                try db.executeCached(sql: "DELETE FROM syncSetsInFlight WHERE todoId = ?", arguments: [key])
            }
        }
    }

    public func resentWrites() async throws -> Set<UUID> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT todoId FROM syncResent").compactMap(UUID.init(parsing:))) }
    }

    public func markResent(adding: Set<UUID>, removing: Set<UUID>) async throws {
        guard !adding.isEmpty || !removing.isEmpty else { return }
        try write { db in
            for todoId in removing {
                try db.executeCached(sql: "DELETE FROM syncResent WHERE todoId = ?", arguments: [todoId.lowercasedString])
            }
            for todoId in adding {
                try db.executeCached(sql: "INSERT OR IGNORE INTO syncResent(todoId) VALUES (?)", arguments: [todoId.lowercasedString])
            }
        }
    }
}
