import Foundation
import TodoCore

// MARK: - Batch writes to todo-server
// todo-server takes up to 500 writes in one request and one transaction
// (`POST /todos/_batch`); the next batch is on its way while the answers of
// the one before are stored here.

extension SyncService {
    /// Sends the server's side of these steps to todo-server, up to
    /// `batchOperations` in one request and one transaction there; a server
    /// without batch writes gets them one by one.
    func sendInBatches(
        _ indices: [Int], of plan: SyncPlan, locals: [UUID: TodoItem], server: RemoteCapabilities, width: Int,
        handle: (Int, RemoteResult, Int) async throws -> Void
    ) async throws {
        // Up to 500 writes a batch, and well under todo-server's 1 MiB body limit however long their texts.
        var chunks: [ArraySlice<Int>] = []
        var start = 0
        while start < indices.count {
            var end = start
            var bytes = 0
            while end < indices.count, end - start < Self.batchOperations, bytes < Self.batchBytes {
                bytes += 400 + Self.textBytes(plan.steps[indices[end]])
                end += 1
            }
            chunks.append(indices[start..<end])
            start = end
        }
        // Up to `batchesInFlight` batches are on their way while the answers
        // of the one before are stored here: the server reads one while it
        // writes another, and our transactions overlap theirs.
        var handled = 0
        var sentAfter: [Int: Int] = [:]
        func handleAll(_ chunk: Int, _ results: [RemoteCollection.WriteResult]) async throws {
            for (index, result) in zip(chunks[chunk], results) {
                try await handle(index, try await remoteResult(plan.steps[index], result), sentAfter[chunk] ?? handled)
                handled += 1
            }
        }
        var inFlight: [Int: Task<[RemoteCollection.WriteResult]?, any Error>] = [:]
        var started = 0
        func startNext() async throws {
            sentAfter[started] = handled
            inFlight[started] = try await sendBatch(chunks[started], of: plan, locals: locals)
            started += 1
        }
        for (number, chunk) in chunks.enumerated() {
            while started < chunks.count, started < number + Self.batchesInFlight {
                try await startNext()
            }
            guard let results = try await inFlight.removeValue(forKey: number)?.value else {
                // No batch route (an older todo-server), or a smaller body
                // limit: one request per write from here on, but for a batch
                // still on its way that the server took.
                var rest = Array(chunk)
                for later in number + 1..<started {
                    if let taken = try await inFlight.removeValue(forKey: later)?.value {
                        try await handleAll(later, taken)
                    } else {
                        rest += chunks[later]
                    }
                }
                rest += chunks[started...].joined()
                let before = handled
                return try await sendAll(rest, of: plan, locals: locals, server: server, width: width) { index, result, after in
                    try await handle(index, result, before + after)
                }
            }
            if started < chunks.count {
                try await startNext()
            }
            do {
                try await handleAll(number, results)
            } catch {
                // The batches still on their way may be applied there: their
                // creates are marked, and the next pass finds them; nothing
                // else in them needs undoing.
                for task in inFlight.values { _ = try? await task.value }
                throw error
            }
        }
    }

    /// How many batch requests are on their way at once.
    static let batchesInFlight = 2

    /// Marks a batch's creates in flight, then sends it, without waiting for the answer.
    private func sendBatch(
        _ chunk: ArraySlice<Int>, of plan: SyncPlan, locals: [UUID: TodoItem]
    ) async throws -> Task<[RemoteCollection.WriteResult]?, any Error> {
        let steps = chunk.map { plan.steps[$0] }
        try await store.markInFlight(steps)
        let operations = steps.compactMap { step in operation(step, local: locals[step.todoId]) }
        return Task { try await self.batchResults(operations) }
    }

    /// How many writes one batch request carries, at most.
    static let batchOperations = 500
    /// About how many bytes one batch request carries, at most.
    static let batchBytes = 512 * 1024

    private static func textBytes(_ step: SyncStep) -> Int {
        switch step.remote {
        case let .create(fields), let .update(_, _, fields, _): fields.text.utf8.count
        case .delete, .none: 0
        }
    }

    /// A batch's results; nil if the server has no batch route. A batch that
    /// got no clear answer may have been applied: its creates are found by
    /// their ids on the next pass, its updates and deletes are safe to repeat.
    private func batchResults(_ operations: [RemoteCollection.BatchWrite]) async throws -> [RemoteCollection.WriteResult]? {
        do {
            return try await remote.batch(operations)
        } catch let error as SyncError where error.createMayHaveHappened {
            return Array(repeating: .stale, count: operations.count)
        }
    }

    private func operation(_ step: SyncStep, local: TodoItem?) -> RemoteCollection.BatchWrite? {
        switch step.remote {
        case .none: nil
        case let .create(fields):
            .create(
                local ?? fields.item(id: step.todoId, createdAt: now()),
                fields: fields, editedAt: step.editedAt
            )
        case let .update(id, version, fields, changed):
            .update(
                id: id, version: version, fields: fields, changed: changed, editedAt: step.editedAt,
                local: step.stored(over: local), dates: step.sendsDates,
                keptTags: step.keptTags
            )
        case let .delete(id, version):
            .delete(id: id, version: version)
        }
    }

    /// What one write's result means for its step, as `remoteWrite` reads it.
    private func remoteResult(_ step: SyncStep, _ result: RemoteCollection.WriteResult) async throws -> RemoteResult {
        switch (step.remote, result) {
        case let (.create, .done(item?)):
            return .written(id: item.id, version: item.version)
        case (.create, .exists):
            if case let .done(item?) = try await remote.fetchCreated(step.todoId) {
                return .found(step.todoId, item, "a todo was already on the server")
            }
            return .retry("a todo was already on the server")
        case (.create, _):
            return .retry("a create got no clear answer")
        case let (.update(id, _, _, _), .done(item)):
            return .written(id: id, version: item?.version)
        case (.update, .missing):
            return .retry("a todo was deleted on the server while syncing")
        case (.delete, .done), (.delete, .missing):
            return .written(id: nil, version: nil)
        default:
            return .retry("a todo changed on the server while syncing")
        }
    }
}
