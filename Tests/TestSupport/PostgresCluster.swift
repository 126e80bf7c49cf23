import Foundation

/// A private PostgreSQL cluster for tests: made with Debian's `initdb` in a
/// temporary folder, listening on 127.0.0.1 and a free port, trusting local
/// connections, stopped and removed when the tests end.
///
/// PostgreSQL refuses to run as root, so when the tests run as root the
/// cluster runs as the `postgres` user (`runuser -u postgres --`), in a folder
/// it owns.
public final class PostgresCluster: Sendable {
    /// Where Debian's PostgreSQL 15 puts its programs.
    public static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")

    /// Why PostgreSQL tests cannot run here, or nil when they can.
    public static let unavailableReason: String? = {
        let needed = ["initdb", "pg_ctl", "psql"]
        if let missing = needed.first(where: { !FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent($0).path) }) {
            return "PostgreSQL is not installed (no \(binaries.path)/\(missing)); apt-get install postgresql to run these tests"
        }
        return nil
    }()

    public static var isAvailable: Bool { unavailableReason == nil }

    /// One cluster for the whole test run, started on first use: each test
    /// takes a database of its own in it (`makeDatabase()`).
    public static func shared() async throws -> PostgresCluster {
        try await SharedCluster.instance.get()
    }

    public let folder: URL
    public let port: Int
    private let asPostgresUser: Bool

    private init(folder: URL, port: Int, asPostgresUser: Bool) {
        self.folder = folder
        self.port = port
        self.asPostgresUser = asPostgresUser
    }

    /// Makes and starts a new cluster; `stop()` ends it and removes its folder.
    public static func start() throws -> PostgresCluster {
        if let unavailableReason { throw ClusterError(unavailableReason) }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("todo-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let asPostgresUser = getuid() == 0
        if asPostgresUser {
            try run("/bin/chown", ["postgres:postgres", folder.path])
        }
        let data = folder.appendingPathComponent("data").path
        try run(
            binaries.appendingPathComponent("initdb").path,
            ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"],
            asPostgresUser: asPostgresUser
        )
        // A free port can be taken by another process before PostgreSQL binds
        // it: then try another.
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try freePort()
            let cluster = PostgresCluster(folder: folder, port: port, asPostgresUser: asPostgresUser)
            do {
                try cluster.pgctl(["start", "-w", "-t", "60", "-l", folder.appendingPathComponent("log").path, "-o", cluster.serverOptions])
                return cluster
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? ClusterError("PostgreSQL did not start")
    }

    /// Fast and forgetful: a test cluster needs no durability.
    private var serverOptions: String {
        "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off -c synchronous_commit=off "
            + "-c full_page_writes=off -c max_connections=300"
    }

    /// A URL for `--database`: the cluster's `postgres` user on `name`.
    public func url(database name: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Creates an empty database and returns its URL.
    public func makeDatabase() async throws -> String {
        let name = "todo_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        try await offThePool { [self] in try psql("CREATE DATABASE \(name)") }
        return url(database: name)
    }

    /// The database a URL of `url(database:)` names.
    public static func databaseName(in url: String) -> String {
        String(url.split(separator: "/").last?.split(separator: "?").first ?? "")
    }

    /// Runs SQL with `psql` on `database` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(
            Self.binaries.appendingPathComponent("psql").path,
            ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        )
    }

    /// Stops PostgreSQL at once, as a crash or an operator would: connections are dropped.
    public func stopServer() throws {
        try pgctl(["stop", "-w", "-m", "fast"])
    }

    /// Starts it again on the same port and data.
    public func startServer() throws {
        try pgctl(["start", "-w", "-t", "60", "-l", folder.appendingPathComponent("log").path, "-o", serverOptions])
    }

    /// Stops PostgreSQL and removes the cluster's folder.
    public func stop() {
        _ = try? pgctl(["stop", "-w", "-m", "immediate"])
        try? FileManager.default.removeItem(at: folder)
    }

    private func pgctl(_ arguments: [String]) throws {
        try Self.run(
            Self.binaries.appendingPathComponent("pg_ctl").path,
            ["-D", folder.appendingPathComponent("data").path] + arguments,
            asPostgresUser: asPostgresUser
        )
    }

    /// A command line that closes every descriptor but 0, 1 and 2, then
    /// runs (as the same process) the program and arguments after it: for a
    /// daemon started with `posix_spawn` (never through Foundation's
    /// `Process`, which watches its child through a descriptor of its own).
    static let closingInheritedDescriptors = [
        "/usr/bin/python3", "-c", "import os, sys; os.closerange(3, os.sysconf('SC_OPEN_MAX')); os.execv(sys.argv[1], sys.argv[1:])",
    ]

    /// Runs a program to its end; throws with its output if it fails.
    ///
    /// Spawned and waited for with `posix_spawn` and `waitpid`, its output
    /// in a file: `pg_ctl start` leaves the server running behind it, and
    /// Foundation's `Process` was seen never to notice its end.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], asPostgresUser: Bool = false) throws -> String {
        // The postgres user must be able to enter the working folder: /tmp.
        let command = ["/usr/bin/env", "-C", "/tmp", executable] + arguments
        // Through a program that closes every descriptor but the standard
        // three first: PostgreSQL's daemons outlive this call, and a pipe of
        // another test's child they held would never see its end (a whole
        // test run hung on one).
        let argv = Self.closingInheritedDescriptors
            + (asPostgresUser ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command)
        let outputPath = NSTemporaryDirectory() + "todo-pg-run-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw ClusterError("cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ClusterError("\(argv.joined(separator: " ")) failed (status \(status)): \(printed)")
        }
        return printed
    }

    /// A port nothing listens on now, as the kernel picks one.
    private static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ClusterError("no socket for a free port") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketFD, pointer, length) == 0 && getsockname(socketFD, pointer, &length) == 0
            }
        }
        guard bound else { throw ClusterError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// What went wrong starting or driving a test cluster.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The cluster `PostgresCluster.shared()` returns, started once, stopped
/// when the test process exits.
private actor SharedCluster {
    static let instance = SharedCluster()
    private var starting: Task<PostgresCluster, any Error>?

    func get() async throws -> PostgresCluster {
        if let starting { return try await starting.value }
        let task = Task {
            let started = try await offThePool { try PostgresCluster.start() }
            sharedClusterToStop.withLock { $0 = started }
            atexit {
                sharedClusterToStop.withLock { $0 }?.stop()
            }
            return started
        }
        starting = task
        return try await task.value
    }
}

/// Runs blocking work (a program run to its end) on a thread of its own, not
/// on one of the few threads every test's async code shares.
@discardableResult
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}

private let sharedClusterToStop = LockedValue<PostgresCluster?>(nil)

/// A value behind a lock, for the exit handler, which can capture nothing.
private final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}
