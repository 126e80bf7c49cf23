import Foundation
import TodoCore

/// Where sync keeps its bookkeeping: beside the todos, so every step is
/// written in the same transaction as the data it describes.
public protocol SyncStore: Sendable {
    /// Todos changed here since their last sync, with the rev each was read at.
    func pendingChanges() async throws -> [(todoId: UUID, rev: Int64)]

    /// Base, local todo and queued rev for each id that has any of them.
    func syncRows(todoIds: [UUID]) async throws -> [UUID: SyncRow]

    /// Every base, keyed by remote id: what the last sync saw on the server.
    func allBases() async throws -> [SyncBase]

    /// The bases of these remote ids.
    func bases(remoteIds: [String]) async throws -> [String: SyncBase]

    /// The todos a CalDAV server knows by a UID of its own (`SyncBase.remoteUID`), by that UID.
    func remoteUIDs() async throws -> [String: UUID]

    /// Breaks every cycle of parents or blockers (which two links a sync
    /// brought together can make: `a` under `b` here, `b` under `a` there)
    /// as every replica breaks it (`TodoLinks.breakingCycles`), each link
    /// dropped as an edit made at `date`, which the next pass sends. Returns
    /// how many todos changed.
    func breakLinkCycles(at date: Date) async throws -> Int

    /// Applies steps in one transaction; for each, false if its todo changed
    /// meanwhile and nothing was written for it.
    func apply(_ writes: [SyncWrite]) async throws -> [Bool]

    /// Stores todos pulled from the server that are not here, in one
    /// transaction: each as a new todo holding its base's fields and the
    /// pull's dates, with that base. For each, false if its todo appeared or
    /// changed here meanwhile and nothing was written for it.
    func storePulls(_ pulls: [SyncPull]) async throws -> [Bool]

    func syncSetting(_ key: String) async throws -> String?

    /// Stores settings together, one transaction; a nil value removes the key.
    func setSyncSettings(_ values: [String: String?]) async throws

    /// The most recent conflicts first.
    func conflictHistory(limit: Int) async throws -> [SyncConflict]

    /// Records, before sending them, what these steps' writes may leave on
    /// the server whether or not their answers come: that their creates may
    /// reach it, and the tags and blockers they send (`SetsInFlight`).
    func markInFlight(_ steps: [SyncStep]) async throws

    /// The server refused these writes outright (a 4xx): nothing of them is
    /// there, and what `markInFlight` recorded of them is dropped.
    func dropInFlight(_ todoIds: [UUID]) async throws

    /// A push is about to send what is queued: a change made here so far
    /// may be on the server from now on, answered or not (see undo).
    func markSending() async throws

    /// How many creates were sent without their answer being recorded.
    func createsInFlight() async throws -> Int

    /// The todos whose create was sent without its answer being recorded.
    func todosCreatedInFlight() async throws -> [UUID]

    /// Todos this replica created on a server that may persist late, not
    /// yet seen in a list from it (`SyncWrite.awaitsListing`), with when
    /// each was sent and answered.
    func unconfirmedCreates() async throws -> [UnconfirmedCreate]

    /// The number the next answer recorded for an unconfirmed write takes
    /// (`AnswerOrder`): after every one recorded.
    func nextAnswerNumber() async throws -> Int64

    /// Every todo whose write (a create, or a CalDAV change or delete,
    /// `SyncWrite.awaitsReport`) no list or report has shown yet, in the order written.
    func unconfirmedWrites() async throws -> [UUID]

    /// The todos whose write was sent again after a report left it out and
    /// the server answered 404 (`syncResent`).
    func resentWrites() async throws -> Set<UUID>

    /// Records writes sent again (`adding`), and forgets those gone since (`removing`).
    func markResent(adding: Set<UUID>, removing: Set<UUID>) async throws

    /// These created todos were seen in a list: no longer unconfirmed.
    func confirmCreates(_ todoIds: [UUID]) async throws

    /// How many todos the last syncs recorded as held on both sides.
    func baseCount() async throws -> Int

    /// How many todos are queued to be pushed.
    func pendingCount() async throws -> Int

    /// The newest queued change's number (numbers only grow), nil when none is queued.
    func localChangeMarker() async throws -> Int64?
}

extension SyncStore {
    /// Stores pulls that carried no dates: each todo created, changed and
    /// (if done) completed at `time`.
    public func storePulls(_ bases: [SyncBase], at time: Date) async throws -> [Bool] {
        try await storePulls(bases.map { SyncPull(base: $0, at: time) })
    }

    public func markCreateInFlight(_ todoId: UUID) async throws {
        try await markInFlight([SyncStep(
            todoId: todoId, expectedRev: nil, remote: .create(SyncFields(text: "", isDone: false)), local: .keep,
            base: nil, remoteId: nil, remoteVersion: nil, conflicts: []
        )])
    }
}
