import ArgumentParser
import TodoCore
import TodoStorage

struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark todos done.",
        discussion: """
            Takes one or more IDs or unique ID prefixes. If any ID is unknown or \
            ambiguous, nothing is changed.

            Example:
              todo done 3f2a 91bc
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String]

    @MainActor
    mutating func run() async throws {
        try await markDone(true, ids: ids, db: database.open(), json: output.json)
    }
}

struct UndoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undone",
        abstract: "Mark todos not done.",
        discussion: """
            Takes one or more IDs or unique ID prefixes. If any ID is unknown or \
            ambiguous, nothing is changed.

            Example:
              todo undone 3f2a
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String]

    @MainActor
    mutating func run() async throws {
        try await markDone(false, ids: ids, db: database.open(), json: output.json)
    }
}

/// Marks the todos done or not done and prints them; what `done` and `undone` do,
/// with plain values (see `QuickInvocation`).
@MainActor
func markDone(_ done: Bool, ids: [String], db: AppDatabase, json: Bool) async throws {
    let (changed, next) = try await db.logic.setDoneBringingNext(done, idPrefixes: ids)
    try printChanged(changed, verb: done ? "Done" : "Not done", db: db, json: json)
    // Where a repeating todo went next: its ID and due date (not in --json, whose shape is the todos changed).
    if !json, !next.isEmpty {
        try printChanged(next, verb: "Next", db: db, json: false)
    }
}
