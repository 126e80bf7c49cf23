import Testing
import TodoCore

/// The core says what went wrong; each front end says what to type next in
/// its own words (the command line's are pinned by its tests, MCP's by
/// `MCPProtocolTests`). So no core message names a command, an option or a tool.
@Suite("The core's errors name no front end")
struct ErrorWordsTests {
    static let todo = IDMatch(shortID: "3f2a1b2c", text: "paint the room")

    static let fieldErrors: [TodoFieldError] = [
        .emptyTag, .tagTooLong("x", limit: 64), .tagNotOneWord("a b"), .noteTooLong(length: 9, limit: 8),
        .noteHasControlCharacters, .badProject("a..b"), .projectTooLong("p", limit: 9), .badContextName("a b"),
        .badPriority("x"), .badRepeat("often"), .badRepeat("wekdays"), .repeatNotFollowed("FREQ=HOURLY"), .repeatDetailWithoutRepeat("a count"), .badDue("soonish"), .badDue("next"), .badDue("12/24"),
        .badDue("tomorow", suggestion: "tomorrow"), .repeatNeedsDue, .ownParent, .blocksItself,
        .setTwice("due:fri"), .noSuchTag("x", tags: ["a"]),
    ]

    static let errors: [TodoError] = [
        .emptyText, .textTooLong(length: 10_001, limit: 10_000), .textHasControlCharacters,
        .invalidID("zz"), .notFound("ffff"), .ambiguousID("3f", matches: 2, candidates: [todo]),
        .prefixTooShort("3f", matches: 1, candidates: [todo]), .nothingToUndo, .nothingToUndoInView, .nothingToRedo,
        .undoConflict(change: "edit", text: "paint the room", id: "3f2a1b2c"),
        .linkCycle(.parent, [todo, todo]), .linkCycle(.blockedBy, [todo, todo]), .openSubtasks(parent: todo, open: 2),
    ] + fieldErrors.map(TodoError.invalidField)

    @Test(arguments: errors)
    func namesNoCommandOptionOrTool(_ error: TodoError) {
        let words = error.description
        #expect(!words.contains("--"), "\(words)")
        for command in ["todo add", "todo list", "todo edit", "todo show", "todo undo", "list_todos", "edit_todo", "with_subtasks"] {
            #expect(!words.contains(command), "\(words)")
        }
        #expect(!words.isEmpty && !words.hasSuffix(" "))
    }
}
