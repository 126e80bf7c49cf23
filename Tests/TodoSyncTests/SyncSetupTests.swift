import Foundation
import Testing
import TodoStorage
@testable import TodoSync

/// `todo sync` and `todo ui`'s syncs are put together by one `SyncSetup`:
/// the same server, token and settings whichever starts the sync.
@Suite struct SyncSetupTests {
    static func config() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-setup-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theServerIsTheOneNamedElseTheEnvironmentsElseTheOneRemembered() async throws {
        let db = try AppDatabase.inMemory()
        let environment = ["XDG_CONFIG_HOME": Self.config()]
        await #expect(throws: SyncError.noServer) { try await SyncSetup(environment: environment).resolve(store: SQLiteSyncStore(db)) }
        // The sync itself remembers its server.
        try await SQLiteSyncStore(db).setSyncSettings([SyncSettingKey.server: "http://remembered:3000"])
        #expect(try await SyncSetup(environment: environment).resolve(store: SQLiteSyncStore(db)).configuration.server == "http://remembered:3000")
        var withServer = environment
        withServer["TODO_SERVER"] = "http://env:3000/todos"
        // A collection's URL is its server's base URL.
        #expect(try await SyncSetup(environment: withServer).resolve(store: SQLiteSyncStore(db)).configuration.server == "http://env:3000")
        #expect(try await SyncSetup(environment: withServer, server: "http://named:3000/").resolve(store: SQLiteSyncStore(db)).configuration.server == "http://named:3000")
        await #expect(throws: SyncError.invalidServerURL("ftp://x")) {
            try await SyncSetup(environment: environment, server: "ftp://x").resolve(store: SQLiteSyncStore(db))
        }
    }

    @Test func theTokenIsTheOneGivenElseTheEnvironmentsElseTheOneRemembered() async throws {
        let db = try AppDatabase.inMemory()
        let environment = ["XDG_CONFIG_HOME": Self.config()]
        let setup = SyncSetup(environment: environment, server: "http://host:3000")
        #expect(try await setup.resolve(store: SQLiteSyncStore(db)).configuration.token == nil)
        try setup.credentials.remember("remembered", for: "http://host:3000")
        #expect(try await setup.resolve(store: SQLiteSyncStore(db)).configuration.token == "remembered")
        var withToken = environment
        withToken["TODO_TOKEN"] = "from-env"
        #expect(try await SyncSetup(environment: withToken, server: "http://host:3000").resolve(store: SQLiteSyncStore(db)).configuration.token == "from-env")
        #expect(try await SyncSetup(environment: withToken, server: "http://host:3000", token: "given").resolve(store: SQLiteSyncStore(db)).configuration.token == "given")
    }

    @Test func thisSyncsFieldNamesGoOverThoseRemembered() async throws {
        let db = try AppDatabase.inMemory()
        let setup = SyncSetup(environment: ["XDG_CONFIG_HOME": Self.config()], server: "http://host:3000")
        let (settings, configuration) = try await setup.resolve(store: SQLiteSyncStore(db)) { $0.names.title = "name" }
        #expect(settings.names.title == "name" && configuration.names.title == "name")
    }
}
