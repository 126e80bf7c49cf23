// swift-tools-version: 6.1
import PackageDescription

/// Every target builds in Swift 6 language mode with complete concurrency checking.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// The SQL files of `Migrations/`, in the order they apply; a landed one is never edited.
let appMigrations = [
    "0001_create_todo.sql", "0002_sync.sql", "0003_search_scan_index.sql", "0004_search_without_column_sizes.sql",
    "0005_sync_edit_times.sql", "0006_sync_unconfirmed_creates.sql", "0007_planning_fields.sql",
    "0008_undo_journal.sql", "0009_field_edit_times.sql", "0010_redo.sql", "0011_sync_unconfirmed_changes.sql",
    "0012_project_wait_scheduled_until.sql", "0013_subtasks_and_blockers.sql", "0014_sync_writes_in_doubt.sql",
    "0015_sync_foreign_tags.sql", "0016_sync_remote_uids.sql", "0017_import_bases.sql", "0018_hidden_todos.sql", "0019_import_base_digests.sql",
    "0020_start.sql", "0021_sync_unconfirmed_answer_order.sql",
]
let serverMigrations = [
    "server_0001_create_item.sql", "server_0002_accounts.sql", "server_0003_calendar_objects.sql",
    "server_0004_calendar_object_versions.sql", "server_0005_calendar_object_bodies.sql", "server_0006_list_shares.sql", "server_0007_list_members.sql",
    "server_pg_0001_create.sql", "server_pg_0002_write_groups.sql", "server_pg_0003_drop_write_groups.sql",
    "server_pg_0004_calendar_objects.sql", "server_pg_0005_change_notifications.sql",
    "server_pg_0006_calendar_object_versions.sql", "server_pg_0007_calendar_object_bodies.sql", "server_pg_0008_list_shares.sql", "server_pg_0009_list_members.sql",
]

let package = Package(
    name: "todo",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "todo", targets: ["todo"]),
        .library(name: "TodoCore", targets: ["TodoCore"]),
        .library(name: "TodoStorage", targets: ["TodoStorage"]),
        .executable(name: "todo-server", targets: ["todo-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3" ..< "5.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in the graph through hummingbird: event streams end on graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in the graph through async-http-client: named to tell a TLS failure apart.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // config.toml (`todo next`'s weights).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // State, logic and selectors: no database, no HTTP.
        .target(name: "TodoCore", swiftSettings: strict),
        // iCalendar (RFC 5545) read and written keeping every line another app wrote, and the
        // VTODO ⇄ todo mapping: pure, for todo-server's CalDAV and `todo sync` with CalDAV servers.
        .target(name: "TodoICalendar", dependencies: ["TodoCore"], swiftSettings: strict),
        // XML from the network read strictly (no DTD, no entity but the predefined), for WebDAV and CalDAV.
        .target(name: "TodoXML", swiftSettings: strict),
        // Taskwarrior's `task export` and todo.txt, read and written: pure, used by the command line.
        .target(name: "TodoInterchange", dependencies: ["TodoCore"], swiftSettings: strict),
        // The app's SQL schema, compiled into `todo`: the files of `Migrations/` not named `server_…`.
        .target(
            name: "TodoMigrations",
            path: "Migrations",
            exclude: serverMigrations + ["ServerMigrations.swift"],
            sources: ["Migrations.swift"],
            resources: appMigrations.map { .embedInCode($0) },
            swiftSettings: strict
        ),
        // todo-server's SQL schema (SQLite and PostgreSQL), compiled into `todo-server` only.
        .target(
            name: "TodoServerMigrations",
            dependencies: ["TodoMigrations"],
            path: "Migrations",
            exclude: appMigrations + ["Migrations.swift"],
            sources: ["ServerMigrations.swift"],
            resources: serverMigrations.map { .embedInCode($0) },
            swiftSettings: strict
        ),
        // SQLite storage on GRDB.
        .target(
            name: "TodoStorage",
            dependencies: [
                "TodoCore",
                "TodoMigrations",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for streaming rows to the terminal without decoding them.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // A wake-up when another process writes a SQLite database (inotify), for live views and event streams.
        .target(name: "FileChanges", swiftSettings: strict),
        // The one JSON tokenizer, under sync's list reader and todo-server's body reader.
        .target(name: "JSONTokens", swiftSettings: strict),
        // Sync with todo-server, json-server-style servers and CalDAV task lists: the pure
        // planner, the remotes that speak to each, the runner, and sync's store over the database.
        .target(
            name: "TodoSync",
            dependencies: [
                "JSONTokens",
                "TodoCore",
                // CalDAV servers' answers, read strictly, and their tasks.
                "TodoXML",
                "TodoICalendar",
                "TodoStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // `todo mcp`: a Model Context Protocol server on standard input and output, its tools
        // carried out through TodoLogic as the command line's commands are.
        .target(
            name: "TodoMCP",
            dependencies: ["TodoCore", "TodoSync"],
            swiftSettings: strict
        ),

        // The command line (one ArgumentParser command per file), its quick path, and `todo mcp`'s command.
        .target(
            name: "TodoCLI",
            dependencies: [
                "FileChanges",
                "TodoCore",
                "TodoInterchange",
                "TodoMCP",
                "TodoStorage",
                "TodoSync",
                "TodoTerminal",
                "TodoUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "todo", dependencies: ["TodoCLI"], swiftSettings: strict),
        // The next occurrence of a repeat, timed (Benchmarks/run.sh).
        .executableTarget(name: "repeat-bench", dependencies: ["TodoCore"], path: "Benchmarks/RepeatBench", swiftSettings: strict),

        // The terminal: raw mode, keys, display width, writing a frame. Knows no todos.
        .target(name: "TodoTerminal", swiftSettings: strict),
        // `todo ui`: the view drawn from TodoState, its keys, and the loop that runs it.
        .target(name: "TodoUI", dependencies: ["TodoCore", "TodoTerminal"], swiftSettings: strict),

        // todo-server: the JSON API, CalDAV and the accounts, over SQLite or PostgreSQL.
        .target(
            name: "TodoServer",
            dependencies: [
                "FileChanges",
                "JSONTokens",
                "TodoCore",
                "TodoICalendar",
                "TodoXML",
                "TodoServerMigrations",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The connection guard sits between NIO's HTTP/1 parser and Hummingbird.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // An event loop's timer bounds the wait for a PostgreSQL connection.
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "todo-server",
            dependencies: [
                "TodoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // What several test targets share: running the built todo-server, PostgreSQL, programs.
        .target(
            name: "TestSupport",
            dependencies: ["TodoCore", "TodoStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        // The core's fakes: in-memory storage, a fixed clock and UUID source.
        .target(name: "TodoCoreTestSupport", dependencies: ["TodoCore"], path: "Tests/TodoCoreTestSupport", swiftSettings: strict),
        .testTarget(
            name: "TodoCoreTests",
            dependencies: ["TestSupport", "TodoCore", "TodoCoreTestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "TodoInterchangeTests", dependencies: ["TodoCore", "TodoInterchange"], swiftSettings: strict),
        .testTarget(name: "TodoXMLTests", dependencies: ["TodoXML"], swiftSettings: strict),
        .testTarget(
            name: "TodoICalendarTests",
            dependencies: ["TestSupport", "TodoCore", "TodoICalendar", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TodoUITests",
            dependencies: ["TodoCore", "TodoCoreTestSupport", "TodoTerminal", "TodoUI"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TodoStorageTests",
            dependencies: [
                "TestSupport",
                "TodoCore",
                "TodoMigrations",
                "TodoStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TodoCLITests",
            dependencies: [
                // A real todo-server for the live views (LiveUITests).
                "TestSupport",
                "todo",
                "todo-server",
                "TodoCLI",
                "TodoMCP",
                "TodoStorage",
                "TodoSync",
                "TodoUI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Each command's pinned --help, read from the source tree by HelpTextTests; the
            // Python MCP client's session, run by MCPClientTests.
            exclude: ["Help", "Scripts"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TodoSyncTests",
            dependencies: [
                "TestSupport",
                "todo",
                "todo-server",
                "TodoCore",
                "TodoStorage",
                "TodoSync",
                "TodoServer",
                "TodoICalendar",
                "TodoXML",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // The python-caldav client's completion, run by DesktopRepeatsTests.
            exclude: ["Scripts"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TodoServerTests",
            dependencies: [
                "JSONTokens",
                "TodoXML",
                "TodoServerMigrations",
                "TestSupport",
                "todo-server",
                "TodoServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                // A second client of the test's PostgreSQL, holding locks against the server's.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // `todo-server`'s pinned --help, read from the source tree by ServerHelpTextTests.
            exclude: ["Help"],
            swiftSettings: strict
        ),
    ]
)
