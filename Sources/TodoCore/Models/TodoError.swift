/// What can go wrong with a todo action, each case saying what the user can do.
public enum TodoError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyText
    case textTooLong(length: Int, limit: Int)
    case textHasControlCharacters
    /// A due date, priority, tag, note or repeat that cannot be stored.
    case invalidField(TodoFieldError)
    case invalidID(String)
    case notFound(String)
    /// A prefix several todos share: how many, and the first of them by ID
    /// (at most `IDMatch.listed`), for the user to pick from.
    case ambiguousID(String, matches: Int, candidates: [IDMatch])
    /// A prefix shorter than any ID is shown, given to a command that changes
    /// todos: the todos it matches, for the user to pick from.
    case prefixTooShort(String, matches: Int, candidates: [IDMatch])
    /// Undo was asked for, with no change left to take back.
    case nothingToUndo
    /// Undo was asked for in a view, with no change made since it opened.
    case nothingToUndoInView
    /// Redo was asked for, with no undone change to bring back.
    case nothingToRedo
    /// The change undo would take back touched a todo that was changed since
    /// (by a sync, or another program): what the change was, and that todo.
    case undoConflict(change: String, text: String, id: String)
    /// A link that would close a cycle (`TodoLinks.cycle`): the relation
    /// and the todos around it, the first again at the end.
    case linkCycle(TodoLinks.Relation, [IDMatch])
    /// Completing todos with open subtasks, which were not asked for: the
    /// first such parent and how many open subtasks they have in all.
    case openSubtasks(parent: IDMatch, open: Int)
    /// A storage or service failure, already worded for the user.
    case failed(String)
    /// A service (a sync server) could not be reached; nothing here changed.
    case unavailable(String)

    /// What went wrong, in words every front end can show: no command,
    /// option or tool is named. The command line, MCP and the view add what
    /// to type next in their own words (`TodoError.commandLineWords` in
    /// TodoCLI, MCP's `describe`).
    public var description: String {
        switch self {
        case .emptyText:
            "todo text is empty: give the todo some words"
        case let .textTooLong(length, limit):
            "todo text is \(length) characters long: the limit is \(limit), shorten it"
        case .textHasControlCharacters:
            "todo text contains a line break or control character: keep a todo on one line"
        case let .invalidField(error):
            error.description
        case let .invalidID(id):
            "'\(id)' is not a todo ID: IDs are hexadecimal"
        case let .notFound(id):
            "no todo has an ID starting with '\(id)'"
        case let .ambiguousID(id, matches, candidates):
            "'\(id)' matches \(matches) todos: type more characters of the ID"
                + IDMatch.listing(candidates, of: matches)
        case let .prefixTooShort(id, matches, candidates):
            "'\(id)' is shorter than the \(TodoID.minimumPrefixLength) characters IDs are shown with: "
                + "type at least \(TodoID.minimumPrefixLength) characters of the ID "
                + "(it matches \(matches) todo\(matches == 1 ? "" : "s"))" + IDMatch.listing(candidates, of: matches)
        case .nothingToUndo:
            "nothing to undo: every add, edit, done mark, delete and import made here has been undone, or none was made yet"
        case .nothingToUndoInView:
            "nothing to undo made since this view opened"
        case .nothingToRedo:
            "nothing to redo: redo brings back what undo took back, until a new change is made"
        case let .undoConflict(change, text, id):
            "cannot undo the \(change): “\(text)” (\(id)) was changed since, by a sync or another program"
        case let .linkCycle(relation, todos):
            "refused: that would make a cycle, "
                + TodoLinks.described(todos, relation) { "\($0.shortID) “\($0.text)”" }
                + "; remove one of these links first"
        case let .openSubtasks(parent, open):
            "“\(parent.text)” (\(parent.shortID)) has \(open) open subtask\(open == 1 ? "" : "s")"
        case let .failed(message), let .unavailable(message):
            message
        }
    }
}

extension TodoError {
    /// Wraps any error so it can sit in state: todo errors stay as they are,
    /// others keep their own description (storage and sync errors already say what to do).
    public init(_ error: any Error) {
        if let error = error as? TodoError {
            self = error
        } else if let error = error as? any TodoErrorConvertible {
            self = error.todoError
        } else {
            self = .failed(String(describing: error))
        }
    }
}

/// An error of another layer that says which `TodoError` it is, so the
/// distinction survives the trip through the state (an unreachable server is
/// not a failed one).
public protocol TodoErrorConvertible: Error {
    var todoError: TodoError { get }
}

extension TodoError {
    /// What `body` reads, its field error as `.invalidField`.
    public static func readingField<T>(_ body: () throws(TodoFieldError) -> T) throws(TodoError) -> T {
        do {
            return try body()
        } catch {
            throw .invalidField(error)
        }
    }
}
