import GRDB

// MARK: - Many values, few statements
// Sync and import ask about thousands of ids at once: a statement per few
// hundred values, not one per value.

extension AppDatabase {
    /// Which of `ids` are in the table.
    package static func existingIds(_ db: Database, _ ids: [String]) throws -> Set<String> {
        var found = Set<String>()
        try forEachRow(db, "SELECT id FROM todo WHERE id IN", ids) { found.insert($0[0]) }
        return found
    }

    /// Runs `select` (ending in `IN`) for every value, a few hundred values
    /// per statement: one query instead of one per value.
    package static func forEachRow(_ db: Database, _ select: String, _ values: [String], _ body: (Row) throws -> Void) throws {
        for start in stride(from: 0, to: values.count, by: chunkSize) {
            let chunk = values[start..<min(start + chunkSize, values.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "\(select) (\(marks))"), arguments: StatementArguments(chunk))
            while let row = try rows.next() { try body(row) }
        }
    }

    /// Runs `statement` (ending in `IN`) for every value, a few hundred
    /// values a statement.
    package static func executeForEach(_ db: Database, _ statement: String, _ values: [String]) throws {
        for start in stride(from: 0, to: values.count, by: chunkSize) {
            let chunk = values[start..<min(start + chunkSize, values.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            try db.cachedStatement(sql: "\(statement) (\(marks))").execute(arguments: StatementArguments(chunk))
        }
    }

    /// Whether `table` (a name from the migrations) has no row.
    package static func isEmpty(_ db: Database, _ table: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(table))") ?? true
    }

    /// How many values one `IN (...)` list binds: well under SQLite's limit.
    package static let chunkSize = 500
}
