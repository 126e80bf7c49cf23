import ArgumentParser
import Foundation
import TodoCore

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last change made here.",
        discussion: """
            Reverts the latest add, edit, done, undone, rm or import made on this machine \
            (in this database, by any todo command or todo ui) and says what it reverted; \
            run it again to go further back, through the last 1,000 changes. A deleted \
            todo comes back with its ID and every field; undoing done also removes the \
            next occurrence a repeating todo brought. What a sync wrote is not a change \
            made here and is never undone. A change undone before any sync leaves the \
            todo as if it had never been made; one a sync already sent is taken back as \
            the newest edit, which the next sync sends. todo redo brings back what undo \
            took back.

            Undo puts back only the fields the change wrote: a field changed since by a \
            sync (or another program writing the file) is kept. If one the change wrote \
            was changed since, undo refuses and names the todo: look at it, then --force \
            puts back its values from before the change anyway. --dry-run shows each todo \
            undo would change, field by field, before → after, and writes nothing.

            Examples:
              todo undo
              todo undo --dry-run
              todo undo --list
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Show what undo would take back, the latest first, and change nothing.")
    var list = false

    @Flag(help: "Put back the earlier values even of a field changed since by a sync.")
    var force = false

    @Flag(help: "Show each todo undo would change, before → after, and change nothing.")
    var dryRun = false

    func validate() throws {
        if list && (force || dryRun) {
            throw ValidationError("--list changes nothing, so \(force ? "--force" : "--dry-run") has no use with it: give one of them")
        }
    }

    @MainActor
    mutating func run() async throws {
        let (logic, db) = try database.logic(reading: list)
        let out = OutputBuffer()
        guard !list else {
            let history = try await logic.undoHistory(limit: .max)
            if history.isEmpty {
                out.write("Nothing to undo.\n")
            }
            for change in history {
                out.write(Self.time(change.at) + "  " + change.command.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + change.summary + "\n")
            }
            return
        }
        let bar = ProgressBar("Undoing")
        defer { bar.end() }
        let change = try await logic.undo(force: force, dryRun: dryRun) { bar.show(done: $0.done, total: $0.total) }
        bar.end()
        guard dryRun else { return out.write("Undid the \(change.summary).\n") }
        out.write("Would undo the \(change.summary); nothing was written (without --dry-run, it is):\n")
        out.flush()
        let restored = Dictionary(change.restored.map { ($0.id, $0) }) { first, _ in first }
        try printChanges(change.changes.map { ($0.after, restored[$0.id]) }, verb: { now, after in
            after == nil ? "Would delete" : now == nil ? "Would bring back" : "Would change"
        }, db: db, json: false)
    }

    /// When a change was made, in local time: `2026-11-23 19:49`.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
