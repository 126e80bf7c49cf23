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
    /// new base. Server writes run several at once (one at a time on a
    /// server that closes its connection after every response). A crash between the two leaves the base as it was, so the next
    /// sync sees the server already changed and only records it.
    ///
    /// Steps with nothing to send are stored first: pulls of todos not here
    /// all in one transaction (a first sync pulling 100,000 todos commits
    /// once, and the store inserts them in bulk), then the others (deletions
    /// here, bases to record, merges). The local writes of the other steps
    /// are gathered and stored a batch per transaction.
    func execute(
        _ plan: SyncPlan, entries: [SyncEntry], server: RemoteCapabilities, oneAtATime: Bool,
        summary: inout SyncSummary, progress: @Sendable (SyncProgress) -> Void
    ) async throws -> Outcome {
        // Only the todos present here: a first sync has none.
        let locals = Dictionary(
            entries.lazy.compactMap { entry in entry.local.map { (entry.todoId, $0) } },
            uniquingKeysWith: { first, _ in first }
        )
        // On a server that may lose edits, a delete keeps its base until a feed names the deletion.
        let bases = !server.mayLoseEdits ? [:] : Dictionary(
            entries.lazy.compactMap { entry in entry.base.map { (entry.todoId, $0) } }, uniquingKeysWith: { first, _ in first }
        )
        var outcome = Outcome()
        let total = plan.steps.count
        progress(SyncProgress(done: 0, total: total))
        // Steps are named by their place in the plan: 100,000 steps are not copied.
        var pulls: [SyncPull] = []
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
        if server.mayLoseEdits, localOnly > 0 || !remoteSteps.isEmpty { try await SyncSettings.markUnfinished(in: store) }
        if !pulls.isEmpty {
            // A pull counts as pulled and settles no conflict: its step is not read again.
            let stored = try await store.storePulls(pulls)
            let count = stored.lazy.filter { $0 }.count
            summary.pulled += count
            if count < stored.count { outcome.retry("a todo changed here while syncing") }
        }
        try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
        var sent = 0
        if !remoteSteps.isEmpty { try await store.markSending() }
        // Answers are numbered after those of writes still unconfirmed (`AnswerOrder`).
        let firstAnswer = remoteSteps.isEmpty || server.keepsEveryWrite ? 0 : try await store.nextAnswerNumber()
        do {
            let send = server.batchWrites ? sendInBatches : sendAll
            try await send(remoteSteps, plan, locals, server, oneAtATime ? 1 : Self.parallelRequests) { index, result, sentAfter in
                switch result {
                case let .written(id, version):
                    var write = localWrite(plan.steps[index], local: locals[plan.steps[index].todoId], remote: (id, version))
                    // A server that keeps every write says what it lost in its feed; another's creates await a listing.
                    if case .create = plan.steps[index].remote, !server.keepsEveryWrite { write.awaitsListing = true }
                    // One that may lose an update or a delete too: the next feed must name it.
                    if server.mayLoseEdits { Self.awaitListing(of: plan.steps[index], &write, bases: bases) }
                    write.answerOrder = AnswerOrder(sentAfter: firstAnswer + Int64(sentAfter), answered: firstAnswer + Int64(sent))
                    batch.append(index, write)
                case let .retry(reason):
                    outcome.retry(reason)
                case let .found(todoId, item, reason):
                    outcome.known[todoId] = item
                    outcome.retry(reason)
                }
                if batch.count >= Self.batchSize {
                    try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
                }
                sent += 1
                if sent % 50 == 0 { progress(SyncProgress(done: localOnly + sent, total: total)) }
            }
        } catch {
            // What the server already took is recorded before stopping.
            try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
            throw error
        }
        try await commit(&batch, plan: plan, summary: &summary, outcome: &outcome)
        progress(SyncProgress(done: total, total: total))
        return outcome
    }

    /// Marks a write to a server that may lose edits as awaiting a feed that names it: an
    /// update, or a delete, whose base is kept until then (`readAgain`).
    static func awaitListing(of step: SyncStep, _ write: inout SyncWrite, bases: [UUID: SyncBase]) {
        switch step.remote {
        case .update:
            write.awaitsReport = true
        case .delete:
            guard let base = bases[step.todoId] else { return }
            write.base = .set(base)
            write.awaitsReport = true
        default:
            break
        }
    }

    /// How many requests are in flight at once, on kept-alive connections.
    static let parallelRequests = 8

    /// What the server's side of one step came to.
    enum RemoteResult: Sendable {
        /// Done: the item's id and version afterwards.
        case written(id: String?, version: Int?)
        /// Not done: the step waits for the next pass.
        case retry(String)
        /// A create found its todo already there: the next pass merges with it.
        case found(UUID, RemoteTodo, String)
    }

    /// Sends the server's side of these steps, `width` at a time, handing
    /// each result to `handle` as it arrives, with how many results it had
    /// handed before that step was sent. Creates are marked in flight before
    /// they are sent, a block at a time.
    func sendAll(
        _ indices: [Int], of plan: SyncPlan, locals: [UUID: TodoItem], server: RemoteCapabilities, width: Int,
        handle: (Int, RemoteResult, Int) async throws -> Void
    ) async throws {
        var marked = 0
        var handled = 0
        try await withThrowingTaskGroup(of: (Int, RemoteResult, Int).self) { group in
            var next = 0
            var running = 0
            while next < indices.count || running > 0 {
                while running < width, next < indices.count {
                    if next >= marked {
                        let block = indices[next..<min(next + Self.markBlock, indices.count)]
                        try await store.markInFlight(block.map { plan.steps[$0] })
                        marked = block.endIndex
                    }
                    let index = indices[next]
                    let step = plan.steps[index]
                    let local = locals[step.todoId]
                    let sentAfter = handled
                    group.addTask { (index, try await self.remoteWrite(step, local: local, server: server), sentAfter) }
                    next += 1
                    running += 1
                }
                if let (index, result, sentAfter) = try await group.next() {
                    running -= 1
                    try await handle(index, result, sentAfter)
                    handled += 1
                }
            }
        }
    }

    /// How many creates are marked in flight in one transaction, ahead of sending them.
    static let markBlock = 64

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

    /// The server's side of a step.
    func remoteWrite(_ step: SyncStep, local: TodoItem?, server: RemoteCapabilities) async throws -> RemoteResult {
        switch step.remote {
        case .none:
            return .written(id: step.remoteId, version: step.remoteVersion)
        case let .create(fields):
            let todo = local ?? fields.item(id: step.todoId, createdAt: now())
            let result: RemoteCollection.WriteResult
            do {
                result = try await remote.create(todo, fields: fields, editedAt: step.editedAt, server: server)
            } catch let error as SyncError where error.createMayHaveHappened {
                // Maybe created: the next fetch finds it by its marker instead of creating it twice.
                return .retry("a create got no clear answer: \(error)")
            } catch let SyncError.httpStatus(request, status, body) where (400..<500).contains(status) {
                // Refused (423 Locked through every retry, say): not there, so an empty list is no surprise.
                try await store.dropInFlight([step.todoId])
                throw SyncError.httpStatus(request: request, status: status, body: body)
            }
            switch result {
            case let .done(item?):
                return .written(id: item.id, version: item.version)
            case .exists:
                if case let .done(item?) = try await remote.fetchCreated(step.todoId) {
                    return .found(step.todoId, item, "a todo was already on the server")
                }
                return .retry("a todo was already on the server")
            default:
                throw SyncError.missingId(request: "POST \(configuration.collectionPath)")
            }
        case let .update(id, version, fields, changed):
            switch try await remote.update(
                id: id, version: version, fields: fields, changed: changed, editedAt: step.editedAt,
                local: step.stored(over: local), dates: step.sendsDates,
                keptTags: step.keptTags
            ) {
            case let .done(item):
                return .written(id: id, version: item?.version)
            case .missing:
                return .retry("a todo was deleted on the server while syncing")
            default:
                return .retry("a todo changed on the server while syncing")
            }
        case let .delete(id, version):
            switch try await remote.delete(id: id, version: version) {
            case .done, .missing:
                return .written(id: nil, version: nil)
            default:
                return .retry("a todo changed on the server while syncing")
            }
        }
    }

    /// The local write and new base of a step whose server write succeeded.
    func localWrite(_ step: SyncStep, local: TodoItem?, remote: (id: String?, version: Int?)) -> SyncWrite {
        let todo: SyncWrite.TodoChange = switch step.local {
        case .keep: .keep
        case .delete: .delete
        case let .save(item): .save(item)
        }
        let base: SyncWrite.BaseChange = step.newBase(remoteId: remote.id, version: remote.version).map { .set($0) } ?? .remove
        return SyncWrite(todoId: step.todoId, expectedRev: step.expectedRev, todo: todo, base: base, conflicts: step.conflicts)
    }
}

extension SyncError {
    /// A create that failed this way may still have been applied by the server.
    var createMayHaveHappened: Bool {
        switch self {
        case let .unreachable(_, _, kind, _): !kind.nothingSent
        case let .httpStatus(_, status, _): status >= 500
        case .malformed, .missingId: true
        default: false
        }
    }
}
