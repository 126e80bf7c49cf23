import ArgumentParser
import Foundation
import TodoCore
import TodoStorage
import TodoSync

/// `todo sync --watch`: syncs, waits as `SyncSchedule` says, and syncs
/// again, sooner when another `todo` changes the database (SQLite's
/// `data_version`, read each second), until Ctrl-C or SIGTERM, which end it
/// after the sync in flight, never in the middle of one.
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
        let stop = StopRequest()
        var schedule = SyncSchedule(every: .seconds(command.every ?? 30))
        let logic = TodoLogic(state: TodoState(), storage: db)
        while !stop.requested {
            let outcome: SyncSchedule.Outcome
            var line: String
            do {
                let lock = try SyncSetup.lock(databasePath: databasePath)
                defer { lock.release() }
                let summary = try await command.syncOnce(db: db, setup: setup, logic: logic, showsRetries: false)
                let moved = summary.pulled + summary.pushed + summary.deletedLocally + summary.deletedRemotely
                outcome = moved > 0 ? .changed : .unchanged
                for conflict in summary.conflicts where !command.quiet { Self.say(conflict.line) }
                line = summary.line
            } catch {
                outcome = .failed
                line = "sync failed: " + TodoCommand.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            schedule.record(outcome)
            let delay = schedule.delay(jitter: Double.random(in: 0..<1))
            if outcome == .failed {
                // Failures are printed even with --quiet, the first of a run of them at least.
                if !command.quiet || schedule.quietRounds == 0 {
                    FileHandle.standardError.write(Data("\(Self.time()) \(line); next try in \(Self.seconds(delay))\n".utf8))
                }
            } else if !command.quiet {
                Self.say(line)
            }
            await wait(delay, until: stop)
        }
    }

    /// Sleeps for `delay`, ending early on a stop request or a change made
    /// to the database by another process.
    private func wait(_ delay: Duration, until stop: StopRequest) async {
        let start = ContinuousClock.now
        let seen = try? db.dataVersion()
        var tick = 0
        while !stop.requested, ContinuousClock.now - start < delay {
            try? await Task.sleep(for: .milliseconds(250))
            tick += 1
            // Checked each second: a change made here is pushed within about a second.
            if tick % 4 == 0, let seen, let now = try? db.dataVersion(), now != seen { return }
        }
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

/// Ctrl-C or SIGTERM, noted: the watch stops after the sync in flight.
@MainActor
final class StopRequest {
    private(set) var requested = false
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.requested = true }
            }
            source.resume()
            sources.append(source)
        }
    }
}
