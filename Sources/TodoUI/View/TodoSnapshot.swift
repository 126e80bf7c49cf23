import Foundation
import TodoCore

/// What the view reads from `TodoState`, copied out: a plain value, so
/// drawing is a pure function any thread or test can call.
public struct TodoSnapshot: Sendable, Equatable {
    /// The rows the filter and query select, from the loaded window.
    public var rows: [TodoWindow.Row]
    public var hasNewer: Bool
    public var hasOlder: Bool
    /// False while a search is still looking for more rows (see `TodoWindow.isComplete`).
    public var isComplete: Bool
    public var filter: TodoRequest.Status
    public var query: String
    /// The name of the context that is on, if any.
    public var context: String?
    public var counts: TodoCounts?
    public var error: TodoError?
    public var isSyncing: Bool
    public var syncProgress: SyncProgress?
    public var lastSync: SyncSummary?
    /// When a sync last succeeded in this session.
    public var lastSyncedAt: Date?
    /// How a live view's syncing goes; nil when it is not live.
    public var live: LiveSyncStatus?
    /// The day rows' due dates are shown against (a date before it is
    /// overdue), and the time zone they are shown in. A day, not a clock: the
    /// snapshot changes once a day for it, not at every frame.
    public var today: CalendarDay
    public var timeZone: TimeZone

    public init(
        rows: [TodoWindow.Row] = [], hasNewer: Bool = false, hasOlder: Bool = false, isComplete: Bool = true,
        filter: TodoRequest.Status = .pending, query: String = "", context: String? = nil, counts: TodoCounts? = nil,
        error: TodoError? = nil, isSyncing: Bool = false, syncProgress: SyncProgress? = nil, lastSync: SyncSummary? = nil,
        lastSyncedAt: Date? = nil, live: LiveSyncStatus? = nil,
        today: CalendarDay = CalendarDay(Date(), in: .current), timeZone: TimeZone = .current
    ) {
        self.rows = rows
        self.hasNewer = hasNewer
        self.hasOlder = hasOlder
        self.isComplete = isComplete
        self.filter = filter
        self.query = query
        self.context = context
        self.counts = counts
        self.error = error
        self.isSyncing = isSyncing
        self.syncProgress = syncProgress
        self.lastSync = lastSync
        self.lastSyncedAt = lastSyncedAt
        self.live = live
        self.today = today
        self.timeZone = timeZone
    }

    @MainActor
    public init(_ state: TodoState) {
        self.init(
            rows: selectWindowRows(state: state), hasNewer: state.window.hasNewer, hasOlder: state.window.hasOlder,
            isComplete: state.window.isComplete, filter: state.filter, query: state.query, context: state.context?.name, counts: state.counts,
            error: state.error,
            isSyncing: state.isSyncing, syncProgress: state.syncProgress, lastSync: state.lastSync,
            lastSyncedAt: state.lastSyncedAt, live: state.live
        )
    }
}
