import ArgumentParser
import TodoCore

/// The core's errors in the command line's words. The core says what went
/// wrong (`TodoError.description`); here each adds what to type next
/// (`todo list --all`, `--tag home`), as MCP and the view add theirs.
extension TodoError {
    var commandLineWords: String {
        switch self {
        case .emptyText:
            description + ", e.g. todo add \"buy milk\""
        case .invalidID:
            description + ", as shown by todo list"
        case .notFound:
            description + ": run todo list --all to see IDs"
        case let .prefixTooShort(id, matches, candidates):
            "'\(id)' is shorter than the \(TodoID.minimumPrefixLength) characters IDs are shown with: "
                + "type at least \(TodoID.minimumPrefixLength) characters of the ID, as todo list shows it "
                + "(it matches \(matches) todo\(matches == 1 ? "" : "s"))" + IDMatch.listing(candidates, of: matches)
        case let .undoConflict(_, _, id):
            description + "; see it with todo show \(id), then todo undo --force to put back its earlier values anyway"
        case let .linkCycle(relation, _):
            description + " (todo edit ID --\(relation == .parent ? "parent none" : "unblock ID"))"
        case let .openSubtasks(_, open):
            description + ": add --with-subtasks to complete \(open == 1 ? "it" : "them") too, or complete \(open == 1 ? "it" : "them") first"
        case let .invalidField(error):
            error.commandLineWords
        default:
            description
        }
    }
}

extension TodoFieldError {
    var commandLineWords: String {
        switch self {
        case .emptyTag:
            description + ", e.g. --tag home"
        case .tagNotOneWord:
            description + "; give each with its own --tag"
        case let .badProject(text):
            "'\(text)' is not a project: use names joined by dots, e.g. --project home.garden (no spaces, commas or empty parts)"
        case let .badDue(text, nil) where isPartOfADate:
            "'\(text)' is not a due date on its own: in a shell, put a date of several words in quotes, like --due \"next week\" or --due \"dec 24\""
        case .missingValue:
            description + ", e.g. --due fri, --priority high, --tag home"
        case .repeatNeedsDue:
            description + ": add --due, e.g. --due mon --repeat weekly"
        case .repeatDetailWithoutRepeat:
            description + ": give --repeat as well, e.g. --repeat weekly --count 10"
        case .ownParent:
            description + ": give --parent another todo's ID"
        case .blocksItself:
            description + ": give --blocked-by another todo's ID"
        default:
            description
        }
    }
}

/// A core error as the command line prints it: ArgumentParser writes
/// `Error: ` and these words, and exits 1 as for any failure.
struct CommandLineError: Error, CustomStringConvertible {
    var description: String

    /// `error`'s message in the command line's words.
    static func words(_ error: any Error) -> String {
        String(describing: wording(error))
    }

    /// `error` in the command line's words, if the core raised it; else itself.
    static func wording(_ error: any Error) -> any Error {
        switch error {
        case let error as TodoError: CommandLineError(description: error.commandLineWords)
        case let error as TodoFieldError: CommandLineError(description: error.commandLineWords)
        default: error
        }
    }
}
