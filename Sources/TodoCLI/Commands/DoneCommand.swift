import ArgumentParser
import Foundation
import TodoCore

struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark todos done.",
        discussion: """
            Takes one or more IDs or unique ID prefixes, or filters that select the \
            todos as todo list does (pending ones, or --all). If any ID is unknown or \
            ambiguous, nothing is changed; a todo already done is said, and left as it \
            is. More than three todos selected by filters are asked about first on a \
            terminal (--yes goes ahead); --dry-run shows each as it would be, before → \
            after. One todo undo takes the whole change back.

            A todo with open subtasks is asked about on a terminal; --with-subtasks \
            completes them too, without asking. Completing a repeating todo makes \
            its next occurrence, with fresh copies of its subtasks; one whose repeat \
            is a rule kept from a server makes none here, and says so: the app that \
            wrote the rule makes it.

            Examples:
              todo done 3f2a 91bc
              todo done 3f2a --with-subtasks
              todo done --tag errands --due today
              todo done --project home.garden --dry-run
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup(title: "Filters (instead of IDs)") var selection: SelectionOptions

    @Flag(help: "Complete the todos' open subtasks too (else a terminal asks, and elsewhere it is refused).")
    var withSubtasks = false

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String] = []

    func validate() throws {
        try selection.check(ids: ids, command: "done", example: "3f2a, or todo done --tag errands")
    }

    @MainActor
    mutating func run() async throws {
        try await markDone(
            true, ids: ids, selection: selection, db: database.open(), json: output.json, withSubtasks: withSubtasks
        )
    }
}

struct UndoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undone",
        abstract: "Mark todos not done.",
        discussion: """
            Takes one or more IDs or unique ID prefixes, or filters that select done \
            todos (--all: pending ones too). If any ID is unknown or ambiguous, nothing \
            is changed; more than three selected by filters are asked about first.

            Examples:
              todo undone 3f2a
              todo undone --tag errands --yes
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup(title: "Filters (instead of IDs)") var selection: SelectionOptions

    @Argument(help: "IDs (or unique prefixes) of the todos.")
    var ids: [String] = []

    func validate() throws {
        try selection.check(ids: ids, command: "undone", example: "3f2a, or todo undone --tag errands")
    }

    @MainActor
    mutating func run() async throws {
        try await markDone(false, ids: ids, selection: selection, db: database.open(), json: output.json)
    }
}

/// Marks the todos the filters select done or not done, one change, after
/// asking if they are many; with `--dry-run`, shows them.
@MainActor
func markDone(
    _ done: Bool, ids: [String], selection: SelectionOptions, db: any TodoDatabase, json: Bool, withSubtasks: Bool = false
) async throws {
    let verb = done ? "Mark done" : "Mark not done"
    let dryVerb = "Would " + verb.prefix(1).lowercased() + verb.dropFirst()
    guard ids.isEmpty else {
        if selection.dryRun { return try await previewDone(done, ids: ids, verb: dryVerb, db: db, json: json, withSubtasks: withSubtasks) }
        return try await markDone(done, ids: ids, db: db, json: json, withSubtasks: withSubtasks)
    }
    let selected = try selection.selected(in: db, pending: done)
    guard !selected.isEmpty else { throw SelectionError.nothingSelected }
    if selection.dryRun {
        return try await previewDone(done, ids: selected.map(\.item.idString), verb: dryVerb, db: db, json: json, withSubtasks: withSubtasks)
    }
    try selection.confirm(selected, doing: verb)
    try await markDone(done, ids: selected.map(\.item.idString), db: db, json: json, withSubtasks: withSubtasks)
}

/// What `--dry-run` shows of done or undone: each todo as it would be, the
/// fields it would change (before → after), and the next occurrences a
/// repeating todo would bring; nothing is written.
@MainActor
private func previewDone(_ done: Bool, ids: [String], verb: String, db: any TodoDatabase, json: Bool, withSubtasks: Bool) async throws {
    let (changed, next, already) = try await TodoLogic(over: db).setDoneBringingNext(done, idPrefixes: ids, withSubtasks: withSubtasks, dryRun: true)
    if done { sayKeptRepeats(changed) }
    let before = Dictionary(try db.resolveListed(idPrefixes: changed.map(\.idString)).map { ($0.item.id, $0.item) }) { first, _ in first }
    if json { return try printChanged(changed + already, verb: "", db: db, json: true) }
    try printChanges(changed.map { (before[$0.id], $0) }, verb: verb, db: db, json: false)
    try printChanged(already, verb: done ? "Already done" : "Already not done", db: db, json: false)
    try printChanges(next.map { (nil, $0) }, verb: "Would bring next", db: db, json: false)
}

/// The todos a change by filter would touch, as `--dry-run` shows them.
func printSelected(_ todos: [ListedTodo], verb: String, db: any TodoDatabase, json: Bool) throws {
    let out = OutputBuffer()
    if json {
        TodoJSON.writeArray(to: out, absentParents: try db.absentParents(of: todos.map(\.item))) { emit in todos.forEach { emit($0.item) } }
        return
    }
    let formatter = TodoFormatter(usesColor: Terminal.usesColor(), idWidth: 0)
    todos.forEach { out.write(formatter.change(verb, $0)) }
}

/// Marks the todos done or not done and prints them; what `done` and `undone` do,
/// with plain values (see `QuickInvocation`).
@MainActor
func markDone(_ done: Bool, ids: [String], db: any TodoDatabase, json: Bool, withSubtasks: Bool = false) async throws {
    let changed: [TodoItem], next: [TodoItem], already: [TodoItem]
    do {
        (changed, next, already) = try await TodoLogic(over: db).setDoneBringingNext(done, idPrefixes: ids, withSubtasks: withSubtasks)
    } catch {
        // A person at a terminal is asked; a script gets the error, which names --with-subtasks.
        guard case let .openSubtasks(parent, open) = error, Terminal.isTerminal(STDIN_FILENO),
              Terminal.isTerminal(STDERR_FILENO) else { throw error }
        try askToCompleteSubtasks(of: parent, open: open)
        (changed, next, already) = try await TodoLogic(over: db).setDoneBringingNext(done, idPrefixes: ids, withSubtasks: true)
    }
    if done { sayKeptRepeats(changed) }
    // A todo already so is said, and left as it was (its completion time kept).
    if json { return try printChanged(changed + already, verb: "", db: db, json: true) }
    try printChanged(changed, verb: done ? "Done" : "Not done", db: db, json: false)
    try printChanged(already, verb: done ? "Already done" : "Already not done", db: db, json: false)
    // Where a repeating todo went next: its ID and due date (not in --json, whose shape is the todos named).
    if !next.isEmpty {
        try printChanged(next, verb: "Next", db: db, json: false)
    }
}

/// Says on standard error, for each todo completed whose repeat is a rule
/// kept from a server, that no next occurrence is made here.
private func sayKeptRepeats(_ completed: [TodoItem]) {
    for item in completed {
        guard let notice = item.recurrence?.completingKept else { continue }
        FileHandle.standardError.write(Data("“\(item.text)” (\(item.idString.prefix(8))): \(notice).\n".utf8))
    }
}

/// Asks whether to complete a parent's open subtasks too; throws `.declined` unless a person says yes.
private func askToCompleteSubtasks(of parent: IDMatch, open: Int) throws {
    let them = open == 1 ? "it" : "them"
    FileHandle.standardError.write(Data(
        "“\(parent.text)” (\(parent.shortID)) has \(open) open subtask\(open == 1 ? "" : "s"): complete \(them) too? [y/N] ".utf8
    ))
    guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
        throw SelectionError.declined
    }
}
