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

        public init(identifier: String, sql: String) {
            self.identifier = identifier
            self.sql = sql
        }
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
        Migration(
            identifier: "0011_sync_unconfirmed_changes",
            sql: text(PackageResources._011_sync_unconfirmed_changes_sql)
        ),
        Migration(
            identifier: "0012_project_wait_scheduled_until",
            sql: text(PackageResources._012_project_wait_scheduled_until_sql)
        ),
        Migration(identifier: "0013_subtasks_and_blockers", sql: text(PackageResources._013_subtasks_and_blockers_sql)),
        Migration(identifier: "0014_sync_writes_in_doubt", sql: text(PackageResources._014_sync_writes_in_doubt_sql)),
        Migration(identifier: "0015_sync_foreign_tags", sql: text(PackageResources._015_sync_foreign_tags_sql)),
        Migration(identifier: "0016_sync_remote_uids", sql: text(PackageResources._016_sync_remote_uids_sql)),
        Migration(identifier: "0017_import_bases", sql: text(PackageResources._017_import_bases_sql)),
        Migration(identifier: "0018_hidden_todos", sql: text(PackageResources._018_hidden_todos_sql)),
        Migration(identifier: "0019_import_base_digests", sql: text(PackageResources._019_import_base_digests_sql)),
        Migration(identifier: "0020_start", sql: text(PackageResources._020_start_sql)),
        Migration(
            identifier: "0021_sync_unconfirmed_answer_order",
            sql: text(PackageResources._021_sync_unconfirmed_answer_order_sql)
        ),
    ]

    /// Migrations recorded under a name they no longer have, and the name
    /// they have: the same SQL, so a database that ran one under its former
    /// name has the schema and is only told the new name. Migration 0014 was
    /// `0014_sync_sets_in_flight` in development builds between 2e1e004 and
    /// aab83b3 (before it landed), which a database opened then recorded.
    public static let formerNames: [String: String] = [
        "0014_sync_sets_in_flight": "0014_sync_writes_in_doubt",
    ]

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
