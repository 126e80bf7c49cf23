import ArgumentParser
import Foundation
import TodoCore
import TodoStorage
import TodoSync
import TodoTerminal
import TodoUI

struct UICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "A live, full-screen view of the todos.",
        discussion: """
            Takes over the terminal: the todos newest first, moved through with j/k or the \
            arrows; a adds, e edits, x marks done, d deletes, u undoes, / searches as you \
            type, Tab shows pending, done or all, s syncs with the server todo sync last \
            used, q quits; ? lists every key. Changes made by other todo commands appear \
            within a second. Needs a terminal on standard input and output (not TERM=dumb).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @MainActor
    mutating func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let device: TerminalDevice
        do {
            device = try TerminalDevice(environment: environment)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(64)
        }
        let path = database.resolvedPath
        let db = try database.open()
        let lastSyncAt = try await SyncSettings.load(from: db).lastSyncAt
        let app = TodoUIApp(
            logic: db.logic, device: device,
            usesColor: (environment["NO_COLOR"] ?? "").isEmpty,
            lastSyncAt: lastSyncAt,
            makeSyncer: { try RememberedServerSync(databasePath: path, environment: environment) }
        )
        await app.run()
    }
}
