import TodoMigrations

// `todo-server`'s migrations: a target of their own, so the `todo` binary
// embeds only the app's (`Migrations.swift`). The files sit beside the
// app's in `Migrations/`, named `server_…`; the same rules hold.

/// The `todo-server` database's SQL migrations, in the order they apply.
///
/// The server keeps its own database, apart from the app's; the same rules
/// hold: compiled in, never edited once landed, a change is a new file.
public enum ServerMigrations {
    public static let all = [
        migration("server_0001_create_item", PackageResources.server_0001_create_item_sql),
        migration("server_0002_accounts", PackageResources.server_0002_accounts_sql),
        migration("server_0003_calendar_objects", PackageResources.server_0003_calendar_objects_sql),
        migration("server_0004_calendar_object_versions", PackageResources.server_0004_calendar_object_versions_sql),
        migration("server_0005_calendar_object_bodies", PackageResources.server_0005_calendar_object_bodies_sql),
        migration("server_0006_list_shares", PackageResources.server_0006_list_shares_sql),
        migration("server_0007_list_members", PackageResources.server_0007_list_members_sql),
    ]

    /// Migrations that only add a column a database may already have: they
    /// are recorded as applied without running where it is there.
    ///
    /// A server built from bcac5e2 up to c77eba2 created `calendarObject`
    /// with its `version` column (server_0003 had been edited to hold it,
    /// then put back as it first landed). Such a database runs server_0004
    /// after an upgrade, whose `ADD COLUMN` would stop the server with
    /// "duplicate column".
    public static let addedColumns: [String: AddedColumn] = [
        "server_0004_calendar_object_versions": AddedColumn(table: "calendarObject", column: "version"),
    ]
}

/// The column a migration adds (see `ServerMigrations.addedColumns`).
public struct AddedColumn: Sendable, Equatable {
    public let table: String
    public let column: String
}

/// The `todo-server` schema on PostgreSQL, in the order it applies.
///
/// The same rules as the SQLite set: compiled in, never edited once landed, a
/// change is a new file. Each file's statements end with a semicolon at the
/// end of a line: the server runs them one at a time, as PostgreSQL's
/// extended protocol takes one statement per query.
public enum ServerPostgresMigrations {
    public static let all = [
        migration("server_pg_0001_create", PackageResources.server_pg_0001_create_sql),
        migration("server_pg_0002_write_groups", PackageResources.server_pg_0002_write_groups_sql),
        migration("server_pg_0003_drop_write_groups", PackageResources.server_pg_0003_drop_write_groups_sql),
        migration("server_pg_0004_calendar_objects", PackageResources.server_pg_0004_calendar_objects_sql),
        migration("server_pg_0005_change_notifications", PackageResources.server_pg_0005_change_notifications_sql),
        migration("server_pg_0006_calendar_object_versions", PackageResources.server_pg_0006_calendar_object_versions_sql),
        migration("server_pg_0007_calendar_object_bodies", PackageResources.server_pg_0007_calendar_object_bodies_sql),
        migration("server_pg_0008_list_shares", PackageResources.server_pg_0008_list_shares_sql),
        migration("server_pg_0009_list_members", PackageResources.server_pg_0009_list_members_sql),
    ]

    /// As `ServerMigrations.addedColumns`: server_pg_0004 held the `version`
    /// column in databases created from bcac5e2 up to c77eba2.
    public static let addedColumns: [String: AddedColumn] = [
        "server_pg_0006_calendar_object_versions": AddedColumn(table: "calendar_object", column: "version"),
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

/// A migration from its identifier (the file name without `.sql`) and its embedded bytes.
private func migration(_ identifier: String, _ bytes: [UInt8]) -> AppMigrations.Migration {
    AppMigrations.Migration(identifier: identifier, sql: String(decoding: bytes, as: UTF8.self))
}
