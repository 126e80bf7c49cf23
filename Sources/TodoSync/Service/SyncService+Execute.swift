import Foundation
import TodoCore

/// How a pass over a plan ended.
struct Outcome: Sendable {
    /// Every step was written; otherwise another fetch and plan are needed.
    var complete = true
    var reason = ""
    /// Items learnt while running (a create that found its todo already there).
    var known: [UUID: RemoteTodo] = [:]

    mutating func retry(_ why: String) {
        complete = false
        reason = why
    }
}

// MARK: - Running a plan

extension SyncService {
    /// Runs each step: the server write first, then the local write with its
    /// new base. A crash between the two leaves the base as it was, so the next
    /// sync sees the server already changed and only records it.
    ///
    /// Steps with nothing to send are stored first: pulls of todos not here
    /// all in one transaction (a first sync pulling 100,000 todos commits
    /// once, and the store inserts them in bulk), then the others (deletions
    /// here, bases to record, merges). The local writes of the other steps
    /// are gathered and stored a batch per transaction.
    func execute(
        _ plan: SyncPlan, entries: [SyncEntry], kind: ServerKind,
        summary: inout SyncSummary, progress: @Sendable (SyncProgress) -> Void
    ) async throws -> Outcome {
        // Only the todos present here: a first sync has none.
        let locals = Dictionary(
            entries.lazy.compactMap { entry in entry.local.map { (entry.todoId, $0) } },
            uniquingKeysWith: { first, _ in first }
        )
        var outcome = Outcome()
        let total = plan.steps.count
        progress(SyncProgress(done: 0, total: total))
        // Steps are named by their place in the plan: 100,000 steps are not copied.
        var pulls: [SyncBase] = []
        var batch = Batch()
        var remoteSteps: [Int] = []
        for index in plan.steps.indices {
            guard case .none = plan.steps[index].remote else {
                remoteSteps.append(index)
                continue
            }
            let todoId = plan.steps[index].todoId
            if let pull = plan.steps[index].pull, locals.isEmpty || locals[todoId] == nil {
                pulls.append(pull)
            } else {
                let step = plan.steps[index]
                batch.append(index, localWrite(step, local: locals[todoId], remote: (step.remoteId, step.remoteVersion)))
            }
        }
        let localOnly = pulls.count + batch.count
        if !pulls.isEmpty {
            // A pull counts as pulled and settles no conflict: its step is not read again.
            let stored = try await store.storePulls(pulls, at: now())
            let count = stored.lazy.filter { $0 }.count
            summary.pulled += count
            if count < stored.count { outcome.retry("a todo changed here while syncing") }
        }
        try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
        for (done, index) in remoteSteps.enumerated() {
            if done % Self.batchSize == 0 {
                progress(SyncProgress(done: localOnly + done, total: total))
            }
            let step = plan.steps[index]
            guard let written = try await remoteWrite(step, kind: kind, outcome: &outcome) else { continue }
            batch.append(index, localWrite(step, local: locals[step.todoId], remote: written))
            if batch.count >= Self.batchSize {
                try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
            }
        }
        try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
        progress(SyncProgress(done: total, total: total))
        return outcome
    }

    /// How many steps' local writes share one transaction.
    static let batchSize = 500

    /// Local writes waiting for their transaction, and the plan's steps they come from.
    struct Batch {
        var steps: [Int] = []
        var writes: [SyncWrite] = []

        var count: Int { writes.count }

        mutating func append(_ step: Int, _ write: SyncWrite) {
            steps.append(step)
            writes.append(write)
        }
    }

    /// Stores a batch of local writes in one transaction and empties it.
    private func commit(
        _ batch: inout Batch, plan: SyncPlan, summary: inout SyncSummary, outcome: inout Outcome
    ) async throws {
        guard batch.count > 0 else { return }
        let applied = try await store.apply(batch.writes)
        for (index, stored) in zip(batch.steps, applied) {
            if stored {
                summary.count(plan.steps[index])
                summary.conflicts += plan.steps[index].conflicts
            } else {
                outcome.retry("a todo changed here while syncing")
            }
        }
        batch = Batch()
    }

    /// The server's side of a step: its id and version afterwards, or nil if
    /// the step must wait for the next pass.
    func remoteWrite(_ step: SyncStep, kind: ServerKind, outcome: inout Outcome) async throws -> (id: String?, version: Int?)? {
        switch step.remote {
        case .none:
            return (step.remoteId, step.remoteVersion)
        case let .create(fields):
            let result: RemoteCollection.WriteResult
            try await store.markCreateInFlight(step.todoId)
            do {
                result = try await remote.create(todoId: step.todoId, fields: fields, kind: kind)
            } catch let error as SyncError where error.createMayHaveHappened {
                // Maybe created: the next fetch finds it by its marker instead of creating it twice.
                outcome.retry("a create got no clear answer: \(error)")
                return nil
            }
            switch result {
            case let .done(item?):
                return (item.id, item.version)
            case .exists:
                if case let .done(item?) = try await remote.fetchOne(id: step.todoId.lowercasedString) {
                    outcome.known[step.todoId] = item
                }
                outcome.retry("a todo was already on the server")
                return nil
            default:
                throw SyncError.missingId(request: "POST \(configuration.collectionPath)")
            }
        case let .update(id, version, fields, changed):
            switch try await remote.update(id: id, version: version, fields: fields, changed: changed) {
            case let .done(item):
                return (id, item?.version)
            case .missing:
                outcome.retry("a todo was deleted on the server while syncing")
            default:
                outcome.retry("a todo changed on the server while syncing")
            }
            return nil
        case let .delete(id, version):
            switch try await remote.delete(id: id, version: version) {
            case .done, .missing:
                return (nil, nil)
            default:
                outcome.retry("a todo changed on the server while syncing")
                return nil
            }
        }
    }

    /// The local write and new base of a step whose server write succeeded.
    func localWrite(_ step: SyncStep, local: TodoItem?, remote: (id: String?, version: Int?)) -> SyncWrite {
        let time = now()
        let todo: SyncWrite.TodoChange = switch step.local {
        case .keep: .keep
        case .delete: .delete
        case let .save(fields):
            .save(local?.applying(fields, at: time) ?? TodoItem(
                id: step.todoId, text: fields.text, isDone: fields.isDone,
                createdAt: time, completedAt: fields.isDone ? time : nil
            ))
        }
        var base: SyncWrite.BaseChange = .remove
        if let fields = step.base, let id = remote.id {
            base = .set(SyncBase(todoId: step.todoId, remoteId: id, fields: fields, remoteVersion: remote.version))
        }
        return SyncWrite(todoId: step.todoId, expectedRev: step.expectedRev, todo: todo, base: base, conflicts: step.conflicts)
    }
}

extension SyncError {
    /// A create that failed this way may still have been applied by the server.
    var createMayHaveHappened: Bool {
        switch self {
        case let .unreachable(_, cause): !cause.hasPrefix(TransportError.Kind.connectionRefused.rawValue)
        case let .httpStatus(_, status, _): status >= 500
        case .malformed, .missingId: true
        default: false
        }
    }
}
