import Foundation
import GRDB
import GRDBSQLite
import TodoCore

/// A statement run many times with its values bound straight through the
/// sqlite3 C API: for bulk inserts, where building GRDB's `StatementArguments`
/// for every row costs about as much as SQLite's insert itself.
///
/// Only for statements that return no rows, run inside a write; bind every
/// parameter before each `run()`.
package struct DirectStatement {
    /// Kept alive for its handle, which it finalizes.
    private let statement: Statement
    private let connection: SQLiteConnection?

    /// A cached statement is prepared once per connection: a sync storing
    /// its bases 500 at a time parses the 8,500 parameters of their insert
    /// once, not once per batch (10 ms each).
    init(_ db: Database, sql: String, cached: Bool = false) throws {
        statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        connection = db.sqliteConnection
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    package func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(handle, index, utf8.baseAddress, Int32(utf8.count), Self.transient)
        }
    }

    package func bind(_ index: Int32, _ text: String?) {
        if let text {
            bind(index, text)
        } else {
            _ = sqlite3_bind_null(handle, index)
        }
    }

    package func bind(_ index: Int32, _ number: Int64?) {
        if let number {
            _ = sqlite3_bind_int64(handle, index, number)
        } else {
            _ = sqlite3_bind_null(handle, index)
        }
    }

    package func bind(_ index: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    package func bind(_ index: Int32, _ flag: Bool) {
        _ = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
    }

    package func bind(_ index: Int32, _ value: DatabaseValue) {
        switch value.storage {
        case .null: _ = sqlite3_bind_null(handle, index)
        case let .int64(number): _ = sqlite3_bind_int64(handle, index, number)
        case let .double(number): _ = sqlite3_bind_double(handle, index, number)
        case let .string(text): bind(index, text)
        case let .blob(data): bind(index, data)
        }
    }

    /// Binds the fields of `values` and their edit times `times`, from
    /// parameter `first` on, as `TodoItem.writtenColumns` orders them after
    /// its first five: the fields outside the plan, then (`withPlan`) the plan's.
    package func bind(_ values: some TodoFieldValues, times: FieldTimes, from first: Int32, withPlan plan: Bool) {
        var index = first
        func bind(_ group: [TodoField]) {
            for field in group {
                self.bind(index, values.column(field))
                index += 1
            }
            for field in group {
                self.bind(index, times.column(field))
                index += 1
            }
        }
        bind(TodoField.unplanned)
        if plan { bind(TodoField.planned) }
    }

    package func bind(_ item: TodoItem, from first: Int32, withPlan plan: Bool) {
        bind(item, times: item.editedAt, from: first, withPlan: plan)
    }

    /// Runs the statement once with the values bound, and makes it ready for the next.
    func run() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
        sqlite3_reset(handle)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// An insert of many rows, `rowsPerStatement` rows per statement run: SQLite
/// prepares each run of a statement, so one run per row costs more than the
/// insert itself.
///
/// Chunks are large because a statement writing several rows of a STRICT
/// table copies each page it is the first to touch to a statement journal
/// (to undo just itself on an error): 50 rows a run would copy each index
/// page once per run, thousands of times in all.
package struct ChunkedInsert {
    static let rowsPerStatement = 1_000
    /// Fewer rows than this go one run a row: preparing a statement for
    /// them would cost more than the runs.
    static let fewestRowsPerStatement = 16

    private let db: Database
    private let target: String
    private let clause: String
    private let columns: Int

    /// `into` names the table and columns (`todo (id, text)`); `then` follows
    /// the values (an `ON CONFLICT` clause).
    package init(_ db: Database, into target: String, columns: Int, then clause: String = "") throws {
        self.db = db
        self.target = target
        self.clause = clause
        self.columns = columns
    }

    /// Inserts `count` rows in order; `bind` binds row `row`'s values from
    /// parameter `first` on. Runs of up to `rowsPerStatement` rows each, the
    /// last run as long as the rows left (a sync storing 500 bases prepares
    /// one statement of 500 rows), and a few rows left over one at a time.
    package func insert(count: Int, bind: (_ statement: DirectStatement, _ row: Int, _ first: Int32) -> Void) throws {
        var row = 0
        var prepared: (rows: Int, statement: DirectStatement)?
        while count - row >= Self.fewestRowsPerStatement {
            let rows = min(count - row, Self.rowsPerStatement)
            if prepared?.rows != rows { prepared = (rows, try statement(rows: rows)) }
            guard let chunk = prepared?.statement else { break }
            for offset in 0..<rows {
                bind(chunk, row + offset, Int32(offset * columns + 1))
            }
            try chunk.run()
            row += rows
        }
        guard row < count else { return }
        let single = try statement(rows: 1)
        while row < count {
            bind(single, row, 1)
            try single.run()
            row += 1
        }
    }

    private func statement(rows: Int) throws -> DirectStatement {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return try DirectStatement(db, sql: "INSERT INTO \(target) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ") + " " + clause, cached: true)
    }
}
