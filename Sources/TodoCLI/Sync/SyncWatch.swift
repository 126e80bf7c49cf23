import ArgumentParser
import FileChanges
import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// `todo sync --watch`: the live view's sync (`LiveSync`) without a view,
/// one line per sync. todo-server's announcements start a sync the moment
/// anything changes there; another server is asked every `--every` seconds,
/// less often while nothing changes or it is away. A change made here by
/// any `todo` is sent at once (the database's files are watched). Ctrl-C or
/// SIGTERM ends it after the sync in flight, never in the middle of one.
///
/// Each sync takes the sync lock for its length only, so a `todo sync` run
/// by hand meanwhile waits for it rather than syncing the same todos twice.
@MainActor
struct SyncWatch {
    let command: SyncCommand
    let db: AppDatabase
    let databasePath: String
    let setup: SyncSetup

    func run() async throws {
        let logic = TodoLogic(state: TodoState(), storage: db)
        let syncer = LockedSync(CommandSync(command: command, db: db, setup: setup, showsRetries: false), databasePath: databasePath)
        let command = self.command
        let live = try await LiveSyncSetup.make(
            logic: logic, syncer: syncer, db: db, setup: setup, every: .seconds(command.every ?? 30)
        ) { settings in command.adjust(&settings) }
        var failuresInARow = 0
        live.onSyncEnded = { outcome, next in
            switch outcome {
            case .success(let summary):
                failuresInARow = 0
                guard !command.quiet else { return }
                for conflict in summary.conflicts { Self.say(conflict.line) }
                Self.say(summary.line)
            case .failure(let error):
                failuresInARow += 1
                // Failures are printed even with --quiet, the first of a run of them at least.
                guard !command.quiet || failuresInARow == 1 else { return }
                let reason = error.description.trimmingCharacters(in: .whitespacesAndNewlines)
                let retry = next.map { "; next try in \(Self.seconds($0))" } ?? ""
                FileHandle.standardError.write(Data("\(Self.time()) sync failed: \(reason)\(retry)\n".utf8))
            }
        }
        let stop = StopRequest { live.stop() }
        let changes = FileChangeSignal(databasePath: databasePath).changes()
        let watcher = Task {
            for await _ in changes { await live.localChangesMayHaveHappened() }
        }
        await live.run()
        watcher.cancel()
        _ = stop
    }

    /// One line on standard output, at once: a pane or a journal shows each sync as it ends.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(time()) \(line)\n".utf8))
    }

    static func time() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }

    static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }
}

/// Ctrl-C or SIGTERM, noted once: `onStop` runs, and the process goes on
/// until what it stops has ended.
@MainActor
final class StopRequest {
    private var sources: [any DispatchSourceSignal] = []

    init(onStop: @escaping @MainActor () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { onStop() }
            }
            source.resume()
            sources.append(source)
        }
    }
}
