import Logging
import PostgresNIO
import TodoServerMigrations

// MARK: - Migrations

extension PostgresDatabase {
    /// Refuses a database written by a newer server, then applies what is
    /// missing, in one transaction; servers starting at once take turns.
    public func migrate() async throws {
        let migrations = ServerPostgresMigrations.all
        do {
            // At start PostgreSQL may be starting too: worth a longer wait than a request's.
            try await leased(deadline: max(connectionDeadline, .seconds(30))) { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    // Two servers starting at once: the second waits, then finds the work done.
                    try await connection.query("SELECT pg_advisory_xact_lock(7165740)", logger: logger)
                    try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS todo_server_migration (
                            identifier text PRIMARY KEY,
                            applied_at timestamptz NOT NULL DEFAULT now()
                        )
                        """,
                        logger: logger
                    )
                    var applied: Set<String> = []
                    for try await identifier in try await connection.query("SELECT identifier FROM todo_server_migration", logger: logger)
                        .decode(String.self)
                    {
                        applied.insert(identifier)
                    }
                    let known = Set(migrations.map(\.identifier))
                    if let unknown = applied.subtracting(known).sorted().first {
                        throw ServerDatabaseError(
                            "\(location.displayName) was written by a newer todo-server (it has migration \(unknown)); "
                                + "upgrade todo-server or choose another --database."
                        )
                    }
                    for migration in migrations where !applied.contains(migration.identifier) {
                        let present = try await Self.hasColumn(ServerPostgresMigrations.addedColumns[migration.identifier], connection, logger)
                        for statement in ServerPostgresMigrations.statements(in: migration.sql) where !present {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        try await connection.query(
                            "INSERT INTO todo_server_migration (identifier) VALUES (\(migration.identifier))",
                            logger: logger
                        )
                    }
                    try await connection.query("COMMIT", logger: logger)
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch let error as ServerDatabaseError {
            throw error
        } catch {
            throw ServerDatabaseError("Cannot prepare \(location.displayName): \(Self.describe(error))")
        }
    }

    /// Whether the column a migration adds is there already (see
    /// `ServerPostgresMigrations.addedColumns`).
    static func hasColumn(_ added: AddedColumn?, _ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        guard let added else { return false }
        let rows = try await connection.query(
            """
            SELECT 1 FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(added.table) AND column_name = \(added.column)
            """,
            logger: logger
        )
        for try await _ in rows { return true }
        return false
    }

    /// What PostgreSQL said, in one line.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ServerError { return error.message }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
