import Foundation
import TodoCore

/// Runs a sync: fetch, plan (pure), then each step as a server write followed
/// by one local transaction. Safe to stop at any instant: what was not
/// recorded is found again and finished by the next sync.
public struct SyncService: TodoSyncing {
    public let store: any SyncStore
    public private(set) var configuration: SyncConfiguration
    /// The server's side, asked what it can do (`RemoteCapabilities`), never what it is.
    let remote: any RemoteTodos
    let now: @Sendable () -> Date
    /// Fetch-plan-apply passes before giving up: a 412 or an unsure create needs another.
    let maxRounds = 4

    public init(
        store: any SyncStore,
        configuration: SyncConfiguration,
        transport: (any HTTPTransport)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.configuration = configuration
        self.remote = configuration.remote(transport: transport, now: now, store: store)
        self.now = now
    }

    public func sync(dryRun: Bool, force: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        var service = self
        service.configuration.force = configuration.force || force
        do {
            return try await service.run(dryRun: dryRun, progress: progress)
        } catch let SyncError.unreachable(server, request, kind, nil) {
            // Said with what stays safe here.
            let queued = try await store.pendingCount()
            throw SyncError.unreachable(server: server, request: request, kind: kind, queued: queued)
        }
    }

    public func localChangeMarker() async throws -> Int64? {
        try await store.localChangeMarker()
    }

    func run(dryRun: Bool, progress: @escaping @Sendable (SyncProgress) -> Void) async throws -> SyncSummary {
        var summary = SyncSummary()
        summary.dryRun = dryRun
        var known: [UUID: RemoteTodo] = [:]
        var reason = ""
        for _ in 0..<maxRounds {
            let snapshot: Snapshot
            do {
                snapshot = try await fetch(known: known)
            } catch let error as SyncError where configuration.holdsRailedDeletions && error.heldDeletions != nil {
                // An empty list: nothing is synced, and the view asks.
                summary.heldBack = error.heldDeletions
                return summary
            }
            summary.skipped = snapshot.skipped
            if snapshot.unchanged {
                if !dryRun { try await finish(snapshot, summary: summary, listIsCurrent: true) }
                return summary
            }
            var plan = SyncPlanner.plan(snapshot.entries, prefer: configuration.prefer, now: now())
            do {
                try await checkSafety(plan, entries: snapshot.entries)
                summary.heldBack = nil
            } catch let error as SyncError where configuration.holdsRailedDeletions && error.heldDeletions != nil {
                // Everything else goes ahead; the deletions wait for --force.
                summary.heldBack = error.heldDeletions
                plan.steps.removeAll { $0.local == .delete }
            }
            if dryRun {
                summary.record(plan)
                return summary
            }
            // Before this pass's writes, which may mark some of the same todos anew.
            // Not while deletions are held: the next sync must tell a deletion
            // from a create the server lost as this one did (`lostCreates`).
            if summary.heldBack == nil { try await store.confirmCreates(snapshot.confirmed) }
            if plan.writesToServer { try await nameLinkedTasks(snapshot) }
            let outcome = try await execute(
                plan, entries: snapshot.entries, server: snapshot.server, oneAtATime: snapshot.closesConnections,
                summary: &summary, progress: progress
            )
            known = outcome.known
            // Two links each side allowed may close a cycle together: broken
            // here as everywhere, and the next pass sends the change.
            if outcome.complete, try await store.breakLinkCycles(at: now()) > 0 {
                reason = "a cycle of subtasks or blockers was broken, and the change is still to send"
                continue
            }
            if outcome.complete {
                // Held deletions leave the position where it was: the next
                // sync reads them again, and makes them once forced.
                if summary.heldBack == nil {
                    try await finish(snapshot, summary: summary, listIsCurrent: !plan.writesToServer)
                }
                return summary
            }
            reason = outcome.reason
        }
        throw SyncError.incomplete(reason: reason)
    }

    /// Refuses a plan that would empty the local list, or delete more than
    /// half of it (and more than a few todos), unless forced.
    func checkSafety(_ plan: SyncPlan, entries: [SyncEntry]) async throws {
        let deletions = plan.localDeletions
        guard deletions > 0, !configuration.force else { return }
        let synced = try await store.baseCount()
        if deletions >= synced {
            throw SyncError.wouldDeleteEverything(count: deletions)
        }
        if deletions > Self.fewDeletions, deletions * 2 > synced {
            let deleted = Set(plan.steps.lazy.filter { $0.local == .delete }.prefix(3).map(\.todoId))
            let examples = entries.lazy.filter { deleted.contains($0.todoId) }.compactMap { $0.local?.text }
            throw SyncError.wouldDeleteMany(count: deletions, synced: synced, examples: Array(examples))
        }
    }

    /// Deleting this many synced todos here never needs `--force` on its own.
    static let fewDeletions = 10

    /// Records where the server's history was read up to, and when this sync
    /// ended; and the digest of a list that is now exactly what the bases
    /// hold, so the next sync can tell at once that nothing changed there.
    func finish(_ snapshot: Snapshot, summary: SyncSummary, listIsCurrent: Bool) async throws {
        let current = listIsCurrent && snapshot.skipped.isEmpty && !snapshot.server.changeFeed
        try await SyncSettings.recordSync(
            to: store, server: configuration.server, kind: snapshot.server.kind,
            cursor: snapshot.cursor,
            digest: current ? snapshot.digest : nil, at: now(), summary: summary.line
        )
    }
}

extension SyncPlan {
    /// Whether any step writes to the server.
    var writesToServer: Bool {
        steps.contains { if case .none = $0.remote { false } else { true } }
    }
}

extension SyncSummary {
    /// Counts and describes a plan's steps.
    mutating func record(_ plan: SyncPlan) {
        for step in plan.steps {
            count(step)
            steps.append(step.description)
        }
        conflicts += plan.conflicts
    }

    mutating func count(_ step: SyncStep) {
        switch step.remote {
        case .create, .update: pushed += 1
        case .delete: deletedRemotely += 1
        case .none: break
        }
        switch step.local {
        case .save: pulled += 1
        case .delete: deletedLocally += 1
        case .keep: break
        }
    }
}

extension SyncStep: CustomStringConvertible {
    public var description: String {
        let id = String(todoId.uuidString.lowercased().prefix(8))
        var parts: [String] = []
        switch remote {
        case let .create(fields): parts.append("push new \(id) \"\(fields.text)\"")
        case let .update(_, _, fields, changed):
            parts.append("push \(id) " + changed.sorted().map { "\($0.rawValue)=\(fields[$0])" }.joined(separator: " "))
        case .delete: parts.append("delete \(id) on the server")
        case .none: break
        }
        switch local {
        case let .save(item): parts.append("pull \(id) \"\(item.text)\"\(item.isDone ? " (done)" : "")")
        case .delete: parts.append("delete \(id) here")
        case .keep: break
        }
        for conflict in conflicts {
            // Worded as the real run prints a conflict (`SyncConflict.line`).
            parts.append("conflict on \(id) \(conflict.field): here \"\(conflict.localValue)\", server \"\(conflict.remoteValue)\": \(conflict.winner.rawValue) kept")
        }
        return parts.isEmpty ? "\(id) is the same here and on the server: nothing to send or pull" : parts.joined(separator: "; ")
    }
}
