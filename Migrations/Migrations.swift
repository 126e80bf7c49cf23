/// The app's SQL migrations, in the order they apply.
///
/// Each is a file beside this one, compiled into the binary so an installed
/// `todo` needs nothing on disk but its database. A migration is never edited
/// once it has landed: a schema change is a new file, added at the end here.
public enum AppMigrations {
    public struct Migration: Sendable {
        /// The file name without `.sql`: the identifier GRDB records as applied.
        public let identifier: String
        public let sql: String
    }

    // SwiftPM names an embedded file after its file name with the leading
    // digit turned into `_`: `0001_create_todo.sql` is `_001_create_todo_sql`.
    public static let all: [Migration] = [
        Migration(identifier: "0001_create_todo", sql: text(PackageResources._001_create_todo_sql)),
        Migration(identifier: "0002_sync", sql: text(PackageResources._002_sync_sql)),
        Migration(identifier: "0003_search_scan_index", sql: text(PackageResources._003_search_scan_index_sql)),
        Migration(
            identifier: "0004_search_without_column_sizes",
            sql: text(PackageResources._004_search_without_column_sizes_sql)
        ),
        Migration(identifier: "0005_sync_edit_times", sql: text(PackageResources._005_sync_edit_times_sql)),
        Migration(
            identifier: "0006_sync_unconfirmed_creates",
            sql: text(PackageResources._006_sync_unconfirmed_creates_sql)
        ),
        Migration(identifier: "0007_planning_fields", sql: text(PackageResources._007_planning_fields_sql)),
        Migration(identifier: "0008_undo_journal", sql: text(PackageResources._008_undo_journal_sql)),
        Migration(identifier: "0009_field_edit_times", sql: text(PackageResources._009_field_edit_times_sql)),
        Migration(identifier: "0010_redo", sql: text(PackageResources._010_redo_sql)),
    ]

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// The `todo-server` database's SQL migrations, in the order they apply.
///
/// The server keeps its own database, apart from the app's; the same rules
/// hold: compiled in, never edited once landed, a change is a new file.
public enum ServerMigrations {
    public static let all: [AppMigrations.Migration] = [
        AppMigrations.Migration(
            identifier: "server_0001_create_item",
            sql: String(decoding: PackageResources.server_0001_create_item_sql, as: UTF8.self)
        ),
        AppMigrations.Migration(
            identifier: "server_0002_accounts",
            sql: String(decoding: PackageResources.server_0002_accounts_sql, as: UTF8.self)
        ),
    ]
}

/// The `todo-server` schema on PostgreSQL, in the order it applies.
///
/// The same rules as the SQLite set: compiled in, never edited once landed, a
/// change is a new file. Each file's statements end with a semicolon at the
/// end of a line: the server runs them one at a time, as PostgreSQL's
/// extended protocol takes one statement per query.
public enum ServerPostgresMigrations {
    public static let all: [AppMigrations.Migration] = [
        AppMigrations.Migration(
            identifier: "server_pg_0001_create",
            sql: String(decoding: PackageResources.server_pg_0001_create_sql, as: UTF8.self)
        ),
        AppMigrations.Migration(
            identifier: "server_pg_0002_write_groups",
            sql: String(decoding: PackageResources.server_pg_0002_write_groups_sql, as: UTF8.self)
        ),
        AppMigrations.Migration(
            identifier: "server_pg_0003_drop_write_groups",
            sql: String(decoding: PackageResources.server_pg_0003_drop_write_groups_sql, as: UTF8.self)
        ),
    ]

    /// A migration's statements, split where a line ends with a semicolon
    /// outside a `$$`-quoted body (a function's); comments after the last
    /// one are dropped.
    public static func statements(in sql: String) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        var quoted = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            current.append(line)
            if line.split(separator: "$$", omittingEmptySubsequences: false).count % 2 == 0 { quoted.toggle() }
            if !quoted, line.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).first == ";" {
                statements.append(current.joined(separator: "\n"))
                current = []
            }
        }
        return statements
    }
}
