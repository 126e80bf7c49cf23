/// Where the server learns that accounts' todos changed, whoever wrote them:
/// a request of this process, or another todo-server on the same database.
/// One per backend: SQLite (`SQLiteChangeWatcher`), PostgreSQL
/// (`PostgresChangeWatcher`).
public protocol ChangeWatcher: Sendable {
    /// Calls `nudge` with the accounts that may have changed (nil: any of
    /// them) until cancelled, once at the start when it is watching, so a
    /// change made while it was starting is not missed.
    func watch(_ nudge: @escaping @Sendable (Set<AccountID>?) -> Void) async throws

    /// Where each of `accounts`' change feeds stands now; an account gone is left out.
    func counters(of accounts: [AccountID]) async throws -> [AccountID: Int]
}
