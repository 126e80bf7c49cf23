import Foundation

/// Reconciles the local todos with a server. The core drives it through this
/// protocol, so it never sees HTTP.
public protocol TodoSyncing: Sendable {
    /// Runs one sync (or plans one, changing nothing, with `dryRun`);
    /// `force` makes the deletions the safety rail would stop (`HeldDeletions`).
    func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary

    /// A number that grows with every local change waiting to be sent, nil
    /// when none waits: a live view syncs when it moves, not on every write
    /// it sees (a sync's own pulls are not changes to send).
    func localChangeMarker() async throws -> Int64?
}

extension TodoSyncing {
    /// A sync the safety rail guards (`force` off).
    public func sync(dryRun: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        try await sync(dryRun: dryRun, force: false, progress: progress)
    }
}

/// How far a running sync has got, in steps.
public typealias SyncProgress = WorkProgress

/// What a sync did, or would do in a dry run.
public struct SyncSummary: Sendable, Hashable {
    public var pulled = 0
    public var pushed = 0
    public var deletedLocally = 0
    public var deletedRemotely = 0
    public var conflicts: [SyncConflict] = []
    /// Server items that could not be read, reported and left alone.
    public var skipped: [String] = []
    /// One line per planned or applied step, for --dry-run and verbose output.
    public var steps: [String] = []
    public var dryRun = false
    /// The deletions the safety rail held back, everything else synced: a
    /// view asks whether to make them.
    public var heldBack: HeldDeletions?

    /// Whether the sync changed anything, here or there.
    public var movedAnything: Bool { pulled + pushed + deletedLocally + deletedRemotely > 0 }

    public init() {}

    /// The one-line summary printed at the end of every sync.
    public var line: String {
        var parts = [
            "\(pulled) pulled", "\(pushed) pushed",
            "\(deletedLocally) deleted here", "\(deletedRemotely) deleted on the server",
            "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")",
        ]
        if !skipped.isEmpty { parts.append("\(skipped.count) unreadable skipped") }
        let held = heldBack.map { "; held back: it \($0), run todo sync --force to make them" } ?? ""
        return (dryRun ? "Dry run, nothing changed: would have " : "Synced: ") + parts.joined(separator: ", ") + held
    }
}
