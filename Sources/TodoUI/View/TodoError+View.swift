import TodoCore

extension TodoError {
    /// The core's error in the view's words: what went wrong, and where
    /// the view cannot help, where to go instead.
    var viewWords: String {
        switch self {
        case .nothingToUndoInView:
            description + ": older changes are taken back by todo undo in a shell (todo undo --list shows them)"
        default:
            description
        }
    }
}
