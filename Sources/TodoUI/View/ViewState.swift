import Foundation
import TodoCore

/// What the view keeps for itself, beside `TodoState` (seed 004's `@State`):
/// the selection, where it sits on screen, the line being typed, the mode.
public struct ViewState: Sendable, Equatable {
    /// What the keys do now.
    public enum Mode: Sendable, Equatable {
        case browsing
        /// Typing a query: the list filters on every keystroke.
        case searching
        /// Typing a new todo's text.
        case adding
        /// Typing a todo's new text.
        case editing(TodoItem.ID)
        /// The list of keys, shown until the next key.
        case help
        /// Every field of the selected todo and its note, shown until the next key.
        case details
    }

    public var mode: Mode = .browsing
    /// The line being typed in `.searching`, `.adding` and `.editing`, with its cursor.
    public var line = InputLine()
    /// The line's text; set, it puts the cursor after its end.
    public var input: String {
        get { line.text }
        set { line = InputLine(newValue) }
    }
    /// The selected todo. Bound to its ID, not to a row number, so a reload
    /// that moves rows keeps it on the same todo.
    public var selectedID: TodoItem.ID?
    /// Where the selected todo was, to select its neighbour if it goes.
    public var selectedPosition: TodoPosition?
    /// The screen row, within the list, the selection is drawn on: moving
    /// scrolls only when it reaches an edge.
    public var selectionRow = 0
    /// A note for the footer until the next key: what undo or a sync did.
    public var message: String?
    /// When the database last synced, as stored (before this session's syncs).
    public var lastSyncAt: String?
    /// The parents whose subtasks are shown (`Enter` or `→` unfolds, `←`
    /// folds); every other parent's are folded away.
    public var unfolded: Set<TodoItem.ID> = []
    /// A parent whose completion asked about its open subtasks: `x` again,
    /// as the next key, completes them too.
    public var confirmingSubtasksOf: TodoItem.ID?
    /// Deletions a sync held back that `Esc` left alone: no longer asked
    /// about, until a sync holds back others.
    public var dismissedHold: HeldDeletions?

    public init(lastSyncAt: String? = nil) {
        self.lastSyncAt = lastSyncAt
    }

    public var isTyping: Bool {
        switch mode {
        case .searching, .adding, .editing: true
        case .browsing, .help, .details: false
        }
    }
}
