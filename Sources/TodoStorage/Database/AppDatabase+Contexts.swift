import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: saved contexts
// Kept in the `setting` table, with the database they filter: the contexts
// defined (a JSON array) and the name of the one that is on.

extension AppDatabase {
    /// The contexts defined, by name, and the one that is on (nil: none).
    public func savedContexts() throws -> (all: [TodoContext], active: TodoContext?) {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE key IN (?, ?)", arguments: [
                    SettingKey.contexts, SettingKey.context,
                ])
                let values = Dictionary(rows.map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
                let all = values[SettingKey.contexts].flatMap { try? JSONDecoder().decode([TodoContext].self, from: Data($0.utf8)) } ?? []
                let active = values[SettingKey.context].flatMap { name in all.first { $0.name == name } }
                return (all.sorted { $0.name < $1.name }, active)
            }
        }
    }

    /// Stores the contexts defined and which one is on (nil: none), together.
    public func saveContexts(_ contexts: [TodoContext], active: String?) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(contexts.sorted { $0.name < $1.name }), as: UTF8.self)
        try StorageError.wrap(path: path) {
            try dbWriter.write { db in
                try db.execute(
                    sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [SettingKey.contexts, json]
                )
                if let active {
                    try db.execute(
                        sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        arguments: [SettingKey.context, active]
                    )
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [SettingKey.context])
                }
            }
        }
    }
}
