import Foundation

// MARK: - Todos missing from a full list
// A todo that a json-server-style server's list left out is deleted here only
// once the server confirms it is gone; a create of ours the server lost in a
// restart is sent again instead (`Migrations/0006_sync_unconfirmed_creates.sql`);
// one whose answer was lost is looked for before it is sent again.

extension SyncService {
    /// Which of our creates that no list had shown yet a server lost: those
    /// absent that no create of ours still listed may have been written
    /// after. A server that persists late loses its latest writes in a
    /// restart, never an earlier one while keeping a later one; a create
    /// missing while one written after it is still listed was deleted by
    /// another client (its 404 confirmed either way). Creates sent together
    /// may be answered in another order than the server wrote them in: only
    /// one answered before another was sent is known to be earlier
    /// (`AnswerOrder`). One absent beside a listed create sent with it is
    /// taken as deleted elsewhere: a restart in the moment they were in
    /// flight is the rarer of the two. Only our own copy counts
    /// (`keptAsSent`): another replica may have sent the same todo again
    /// since, which says nothing of ours. Pure.
    static func lostCreates(unconfirmed: [UnconfirmedCreate], keptAsSent: Set<UUID>) -> Set<UUID> {
        let kept = unconfirmed.lazy.filter { keptAsSent.contains($0.todoId) }.map(\.order)
        // The one answered last: any create it may have been written after is not lost.
        guard let last = kept.max(by: { $0.answered < $1.answered }) else { return Set(unconfirmed.map(\.todoId)) }
        return Set(unconfirmed.lazy.filter { !last.mayHaveBeenWrittenAfter($0.order) }.map(\.todoId))
    }

    /// Asks the server for each todo its list left out, several at once:
    /// only a 404 or 410 confirms a deletion. A todo still there means the
    /// list was partial, and the sync stops before anything is deleted.
    func confirmGone(_ absent: [SyncBase]) async throws {
        guard !absent.isEmpty else { return }
        let remote = self.remote
        let stillThere = try await withThrowingTaskGroup(of: Int?.self) { group in
            var found: [Int] = []
            var next = 0
            var running = 0
            while next < absent.count || running > 0 {
                while running < Self.parallelRequests, next < absent.count {
                    let (index, id) = (next, absent[next].remoteId)
                    let todoId = absent[next].todoId
                    group.addTask {
                        switch try await remote.fetchOne(id: id) {
                        case .missing: nil
                        // Its id given to another todo (a server that lost it in a restart): gone.
                        case let .done(item?) where item.todoId.map({ $0 != todoId }) ?? false: nil
                        default: index
                        }
                    }
                    next += 1
                    running += 1
                }
                if let result = try await group.next() {
                    running -= 1
                    if let index = result { found.append(index) }
                }
            }
            // In the order of the bases, whatever order the answers came in.
            return found.sorted().map { absent[$0] }
        }
        guard stillThere.isEmpty else {
            throw SyncError.partialList(leftOut: stillThere.count, examples: stillThere.prefix(3).map(\.fields.text))
        }
    }

    /// Creates sent whose answer never came (a connection cut after the
    /// server took one): a list that leaves one out may be partial (a page
    /// that shifted, a stale cache), so each is asked for by its marker
    /// before it is sent again: a second copy on the server is a duplicate
    /// every other client shows.
    func findCreatesInFlight(missingFrom listing: RemoteCollection.Listing, into known: inout [UUID: RemoteTodo]) async throws {
        let listed = Set(listing.items.lazy.compactMap(\.todoId))
        let missing = try await store.todosCreatedInFlight().filter { !listed.contains($0) && known[$0] == nil }
        for start in stride(from: 0, to: missing.count, by: Self.parallelRequests) {
            let found = try await withThrowingTaskGroup(of: RemoteTodo?.self) { group in
                for todoId in missing[start..<min(start + Self.parallelRequests, missing.count)] {
                    group.addTask { try await remote.find(marked: todoId) }
                }
                var found: [RemoteTodo] = []
                for try await item in group { if let item { found.append(item) } }
                return found
            }
            for item in found { if let todoId = item.todoId { known[todoId] = item } }
        }
    }
}
