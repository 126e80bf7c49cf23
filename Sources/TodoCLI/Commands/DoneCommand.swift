import ArgumentParser
import TodoCore

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
        try await setDone(true, ids: ids, database: database, output: output)
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
        try await setDone(false, ids: ids, database: database, output: output)
    }
}

@MainActor
private func setDone(_ done: Bool, ids: [String], database: DatabaseOptions, output: OutputOptions) async throws {
    let (logic, db) = try database.logic()
    let changed = try await logic.setDone(done, idPrefixes: ids)
    try printChanged(changed, verb: done ? "Done" : "Not done", db: db, output: output)
}
