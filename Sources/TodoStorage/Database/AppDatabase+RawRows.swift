import GRDB
import GRDBSQLite
import TodoCore

extension RawTodoRow {
    /// The columns a raw row is read from, at `TodoItem.selection`'s places
    /// up to the tags, then the project, wait and until, and whether it is
    /// started: what a listing prints, and not the
    /// edit times and dates after them, which SQLite would read from every
    /// row for nothing (`todo list` of 1,000,000 todos took 1.08x as long
    /// when it selected them: BENCHMARKS.md).
    static func selection(anyStarted: Bool) -> String {
        """
        todo.id, todo.text, todo.isDone, todo.createdAt, NULL, NULL, todo.idPrefixLength, todo.due, todo.priority, todo.tags, \
        todo.project, todo.wait, todo.until, \(anyStarted ? "todo.start IS NOT NULL" : "0")
        """
    }

    /// Whether any todo is started, from the partial index of started ones:
    /// most lists have none (a person works on a few todos at a time), and
    /// then the start, the row's last column, is not read from every row
    /// (`todo list` of 1,000,000 todos took 1.06x as long: BENCHMARKS.md).
    static func anyStarted(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM todo WHERE start IS NOT NULL)") ?? false
    }
}

extension RawTodoRow {
    /// Calls `body` with `todo` as its row holds it: a todo read whole (a
    /// list cut at `--limit`, its tree built first) prints as every row does.
    public static func withRow<Result>(of todo: ListedTodo, _ body: (RawTodoRow) throws -> Result) rethrows -> Result {
        let item = todo.item
        // The stored forms, one after another in one buffer.
        var bytes: [UInt8] = []
        func append(_ text: String?) -> Range<Int> {
            let start = bytes.count
            bytes += (text ?? "").utf8
            return start..<bytes.count
        }
        let id = append(item.idString), text = append(item.text), due = append(item.due?.text)
        let tags = append(TagList.encode(item.tags)), project = append(item.project)
        let wait = append(item.wait?.text), until = append(item.until?.text)
        return try bytes.withUnsafeBufferPointer { all in
            try body(RawTodoRow(
                id: UnsafeBufferPointer(rebasing: all[id]),
                text: UnsafeBufferPointer(rebasing: all[text]),
                isDone: item.isDone,
                idPrefixLength: todo.idPrefixLength,
                due: UnsafeBufferPointer(rebasing: all[due]),
                priority: item.priority?.rank ?? 0,
                tags: UnsafeBufferPointer(rebasing: all[tags]),
                project: UnsafeBufferPointer(rebasing: all[project]),
                wait: UnsafeBufferPointer(rebasing: all[wait]),
                until: UnsafeBufferPointer(rebasing: all[until]),
                isStarted: item.start != nil
            ))
        }
    }
}

extension AppDatabase {
    /// Calls `body` with each todo `request` selects, in its order, straight
    /// from SQLite's buffers: no `TodoItem`, no `String` per row unless a
    /// search match must be confirmed. This is how `todo list` prints a
    /// million todos at close to the speed of the sqlite3 shell.
    public func forEachRawTodo(_ request: TodoRequest, _ body: (RawTodoRow) throws -> Void) throws {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                var remaining = request.limit ?? Int.max
                // Confirms candidates from their bytes (see `PreparedQuery`).
                let query = PreparedQuery(request.query)
                let selection = RawTodoRow.selection(anyStarted: try RawTodoRow.anyStarted(db))
                for part in Self.listSQL(request, selection: selection) where remaining > 0 {
                    let statement = try db.makeStatement(sql: part.sql)
                    try statement.setArguments(part.arguments)
                    let handle = statement.sqliteStatement
                    while remaining > 0 {
                        let code = sqlite3_step(handle)
                        if code == SQLITE_DONE { break }
                        guard code == SQLITE_ROW else {
                            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                        }
                        // Columns follow `RawTodoRow.selection`: id, text, isDone, …, idPrefixLength, due, priority, tags, project, wait, until.
                        let id = Self.bytes(handle, column: 0)
                        let text = Self.bytes(handle, column: 1)
                        if !request.query.isEmpty {
                            guard query.matches(utf8: text) else { continue }
                        }
                        remaining -= 1
                        let row = RawTodoRow(
                            id: id,
                            text: text,
                            isDone: sqlite3_column_int(handle, 2) != 0,
                            idPrefixLength: Int(sqlite3_column_int(handle, 6)),
                            due: Self.bytes(handle, column: 7),
                            priority: Int(sqlite3_column_int(handle, 8)),
                            tags: Self.bytes(handle, column: 9),
                            project: Self.bytes(handle, column: 10),
                            wait: Self.bytes(handle, column: 11),
                            until: Self.bytes(handle, column: 12),
                            isStarted: sqlite3_column_int(handle, 13) != 0
                        )
                        try body(row)
                    }
                }
            }
        }
    }

    private static func bytes(_ handle: OpaquePointer?, column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }
}
