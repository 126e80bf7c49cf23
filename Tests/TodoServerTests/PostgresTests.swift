import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoServerMigrations
import TodoServer

/// `--database` names a SQLite file or a PostgreSQL database.
struct DatabaseLocationTests {
    @Test func aPathIsSQLiteAndAURLIsPostgreSQL() throws {
        #expect(try ServerDatabaseLocation.resolve(explicit: "/srv/todo.sqlite", environment: [:]) == .sqlite(path: "/srv/todo.sqlite"))
        let location = try ServerDatabaseLocation.resolve(explicit: "postgres://todo:p%40ss@db.example:6543/todos?sslmode=require", environment: [:])
        #expect(location == .postgres(PostgresLocation(host: "db.example", port: 6543, user: "todo", password: "p@ss", database: "todos", tls: .require)))
        #expect(location.displayName == "postgres://todo@db.example:6543/todos")
        #expect(
            try ServerDatabaseLocation.resolve(explicit: nil, environment: ["TODO_SERVER_DATABASE": "postgresql://me@localhost/todo", "PGPASSWORD": "pw"])
                == .postgres(PostgresLocation(host: "localhost", user: "me", password: "pw", database: "todo"))
        )
    }

    @Test func withoutOneItIsTheFileInTheDataHome() throws {
        #expect(try ServerDatabaseLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
            == .sqlite(path: "/data/todo/todo-server.sqlite"))
        // A relative XDG_DATA_HOME is invalid (the XDG spec): the home's is used.
        #expect(try ServerDatabaseLocation.resolve(explicit: "", environment: ["XDG_DATA_HOME": "data", "HOME": "/home/me"])
            == .sqlite(path: "/home/me/.local/share/todo/todo-server.sqlite"))
    }

    @Test(arguments: ["postgres://localhost/todo", "postgres://me@localhost", "postgres://me@localhost/todo?ssl=1"])
    func anIncompleteURLSaysWhatIsMissing(_ url: String) {
        #expect(throws: ServerDatabaseError.self) { try ServerDatabaseLocation.resolve(explicit: url, environment: [:]) }
    }
}

/// The PostgreSQL migrations are run a statement at a time, split where a
/// line ends with a semicolon, but never inside a `$$`-quoted body.
struct PostgresMigrationSplitTests {
    @Test func aFunctionBodyStaysOneStatement() {
        let sql = """
            CREATE TABLE a (x int);
            CREATE PROCEDURE p() LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO a VALUES (1);
                COMMIT;
            END
            $$;
            -- a comment
            INSERT INTO a VALUES (2);
            """
        #expect(ServerPostgresMigrations.statements(in: sql) == [
            "CREATE TABLE a (x int);",
            "CREATE PROCEDURE p() LANGUAGE plpgsql AS $$\nBEGIN\n    INSERT INTO a VALUES (1);\n    COMMIT;\nEND\n$$;",
            "-- a comment\nINSERT INTO a VALUES (2);",
        ])
        let procedure = ServerPostgresMigrations.statements(in: ServerPostgresMigrations.all[1].sql)
        #expect(procedure.count == 1 && procedure[0].contains("CREATE PROCEDURE todo_write_group("))
        let dropped = ServerPostgresMigrations.statements(in: ServerPostgresMigrations.all[2].sql)
        #expect(dropped.count == 1 && dropped[0].contains("DROP PROCEDURE IF EXISTS todo_write_group("))
    }
}

/// `todo-server` processes on PostgreSQL: its schema's version, and what
/// they do while PostgreSQL is down.
@Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
struct PostgresServerTests {
    @Test func aDatabaseWrittenByANewerServerIsRefusedInOneLine() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase()
        let listed = try ServerProcess(["user", "list", "--database", url])
        #expect(try await listed.exitStatus() == 0, "\(listed.printed)")
        try await offThePool { try cluster.psql("INSERT INTO todo_server_migration (identifier) VALUES ('server_pg_9999_future')", database: PostgresCluster.databaseName(in: url)) }

        let server = try ServerProcess(["--port", "0", "--database", url])
        #expect(try await server.exitStatus() != 0)
        let printed = server.printed.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.contains("newer todo-server") && printed.split(separator: "\n").count == 1, "\(printed)")
    }

    /// A database made by a server built from bcac5e2 up to c77eba2 has
    /// `calendar_object.version` from its server_pg_0004 and no
    /// server_pg_0006: the server starts, recording server_pg_0006.
    @Test func aDatabaseWhoseCalendarObjectsHadVersionsAlreadyUpgrades() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase()
        let name = PostgresCluster.databaseName(in: url)
        let listed = try ServerProcess(["user", "list", "--database", url])
        #expect(try await listed.exitStatus() == 0, "\(listed.printed)")
        try await offThePool { try cluster.psql("DELETE FROM todo_server_migration WHERE identifier = 'server_pg_0006_calendar_object_versions'", database: name) }

        let again = try ServerProcess(["user", "list", "--database", url])
        #expect(try await again.exitStatus() == 0, "\(again.printed)")
        let recorded = try await offThePool {
            try cluster.psql("SELECT count(*) FROM todo_server_migration WHERE identifier = 'server_pg_0006_calendar_object_versions'", database: name)
        }
        #expect(recorded.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func whilePostgreSQLIsDownServersAnswer503AndRecoverWithoutARestart() async throws {
        // A cluster of its own: stopping the shared one would fail other tests.
        let cluster = try await offThePool { try PostgresCluster.start() }
        defer { cluster.stop() }
        let url = try await cluster.makeDatabase()
        let servers = [try ServerProcess(["--port", "0", "--database", url]), try ServerProcess(["--port", "0", "--database", url])]
        defer { for server in servers { kill(server.process.processIdentifier, SIGKILL) } }
        let ports = [try await servers[0].port(), try await servers[1].port()]
        let phase = Phase()

        // A writer on each server creates todos one after another while
        // PostgreSQL goes down and comes back, until it has been answered
        // 503 and then 201 again.
        let results = try await withThrowingTaskGroup(of: WriterLog.self) { group in
            for server in 0..<2 {
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: ports[server]) { client in
                        var log = WriterLog()
                        var index = 0
                        // Bounded, so a server that never recovers fails the test rather than hanging it.
                        while index < 3_000 {
                            let id = "s\(server)-\(index)"
                            index += 1
                            let response = try await client.execute(
                                TestClient.Request("/todos", method: .post, authority: "localhost", headers: [.contentType: "application/json"],
                                    body: ByteBuffer(string: #"{"id":"\#(id)"}"#))
                            )
                            log.record(status: response.status.code, id: id, body: String(buffer: response.body ?? ByteBuffer()), during: await phase.current)
                            if response.status.code == 503 { await phase.sawUnavailable(server) }
                            if await phase.current == .restarted, response.status.code == 201 { return log }
                            if response.status.code != 201 { try await Task.sleep(for: .milliseconds(50)) }
                        }
                        return log
                    }
                }
            }
            group.addTask {
                await phase.waitForAcknowledgements(ports: ports)
                try await offThePool { try cluster.stopServer() }
                await phase.set(.down)
                // Health checks see the database gone too.
                for port in ports {
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                        let health = try await client.get("/health")
                        #expect(health.status == .serviceUnavailable)
                        #expect(try JSON(parsing: String(buffer: health.body ?? ByteBuffer()))["error"] != nil)
                    }
                }
                await phase.waitUntilBothSawUnavailable()
                try await offThePool { try cluster.startServer() }
                await phase.set(.restarted)
                return WriterLog()
            }
            return try await group.reduce(into: [WriterLog]()) { $0.append($1) }
        }
        let acknowledged = results.flatMap(\.acknowledged)
        let statuses = Set(results.flatMap(\.statuses))
        // Nothing but created or unavailable: never a 500, never a hang.
        #expect(statuses.isSubset(of: [201, 503]), "\(statuses)")
        #expect(results.allSatisfy { $0.unavailableBodiesAreJSONErrors })
        #expect(results.filter { !$0.statuses.isEmpty }.allSatisfy { $0.statuses.contains(503) && $0.statuses.last == 201 })

        // Every acknowledged write is there, through either server, with no restart of theirs.
        for port in ports {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                #expect(try await client.get("/health").status == .ok)
                let list = try JSON(parsing: String(buffer: try await client.get("/todos").body ?? ByteBuffer()))
                let listed = Set((0..<list.count).compactMap { list[$0]?["id"]?.string })
                #expect(Set(acknowledged).isSubset(of: listed))
            }
        }
        for server in servers { #expect(server.process.isRunning) }
    }
}

/// What one writer was answered.
private struct WriterLog: Sendable {
    var statuses: [Int] = []
    var acknowledged: [String] = []
    var unavailableBodiesAreJSONErrors = true

    mutating func record(status: Int, id: String, body: String, during phase: Phase.Stage) {
        statuses.append(status)
        if status == 201 { acknowledged.append(id) }
        if status == 503, (try? JSON(parsing: body))?["error"]?.string == nil { unavailableBodiesAreJSONErrors = false }
    }
}

/// Where the fault test stands, shared by its writers and its operator.
private actor Phase {
    enum Stage: Sendable { case up, down, restarted }
    private(set) var current = Stage.up
    private var unavailable: Set<Int> = []

    func set(_ stage: Stage) { current = stage }
    func sawUnavailable(_ server: Int) { unavailable.insert(server) }

    /// Waits until both servers have acknowledged writes, so load is on when PostgreSQL stops.
    func waitForAcknowledgements(ports: [Int]) async {
        for port in ports {
            while true {
                let status = try? await TestClient.withClient(host: "127.0.0.1", port: port) { client in try await client.get("/todos").status }
                if status == .ok { break }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        try? await Task.sleep(for: .milliseconds(300))
    }

    func waitUntilBothSawUnavailable() async {
        while unavailable.count < 2 {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
