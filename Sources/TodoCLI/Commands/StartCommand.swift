import ArgumentParser
import TodoCore

struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Mark todos as being worked on.",
        discussion: """
            As Taskwarrior's task start: each todo is active from now, marked * in \
            the lists and the view and ranked higher by todo next (urgency term \
            active, 4.0), until todo stop. A todo already started keeps its start; a \
            done one is left as it is. One todo undo takes the change back; sync \
            carries it (to CalDAV apps as STATUS:IN-PROCESS).

            Examples:
              todo start 3f2a
              todo start 3f2a 91bc --dry-run
            """
    )

    @OptionGroup var arguments: StartArguments

    @MainActor
    mutating func run() async throws {
        try await arguments.setStarted(true)
    }
}

struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Mark todos as no longer worked on.",
        discussion: """
            As Taskwarrior's task stop: takes away the start todo start gave. One \
            todo undo takes the change back.

            Examples:
              todo stop 3f2a
            """
    )

    @OptionGroup var arguments: StartArguments

    @MainActor
    mutating func run() async throws {
        try await arguments.setStarted(false)
    }
}

/// What `todo start` and `todo stop` take.
struct StartArguments: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Show each todo as it would be, before → after; change nothing.")
    var dryRun = false

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String]

    /// Starts or stops the todos and prints them; those already so are said.
    @MainActor
    func setStarted(_ started: Bool) async throws {
        let (logic, db) = try database.logic()
        let (changed, unchanged) = try await logic.setStarted(started, idPrefixes: ids, dryRun: dryRun)
        if output.json { return try printChanged(changed.map(\.after) + unchanged, verb: "", db: db, json: true) }
        let verb = dryRun ? (started ? "Would start" : "Would stop") : (started ? "Started" : "Stopped")
        try printChanges(changed, verb: verb, fields: dryRun, db: db, json: false)
        try printChanged(unchanged.filter { started && $0.isDone }, verb: "Done, left as it is", db: db, json: false)
        try printChanged(unchanged.filter { !(started && $0.isDone) }, verb: started ? "Already started" : "Not started", db: db, json: false)
    }
}
