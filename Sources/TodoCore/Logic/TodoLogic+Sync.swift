// MARK: - Sync

extension TodoLogic {
    /// Syncs with a server: the state shows it running, its progress, then the
    /// summary or the error. A dry run plans and changes nothing; `force`
    /// makes the deletions the safety rail would stop.
    @discardableResult
    public func sync(with syncer: any TodoSyncing, dryRun: Bool = false, force: Bool = false) async throws(TodoError) -> SyncSummary {
        switch await runSync(with: syncer, dryRun: dryRun, force: force) {
        case .success(let summary):
            return summary
        case .failure(let failure):
            state.syncFail(failure)
            throw failure
        }
    }

    /// A sync nobody asked for, run by `LiveSync`: as `sync`, but a failure
    /// is recorded as the live view shows it (offline is no error) and
    /// answered, not thrown.
    public func syncInBackground(with syncer: any TodoSyncing, force: Bool = false) async -> Result<SyncSummary, TodoError> {
        let outcome = await runSync(with: syncer, dryRun: false, force: force)
        if case .failure(let failure) = outcome { state.liveSyncFailed(failure) }
        return outcome
    }

    /// Runs the sync, the state showing it running, its progress and its
    /// summary; a failure is left to the caller to record.
    private func runSync(with syncer: any TodoSyncing, dryRun: Bool, force: Bool) async -> Result<SyncSummary, TodoError> {
        let state = self.state
        state.syncRequest()
        do {
            let summary = try await syncer.sync(dryRun: dryRun, force: force) { progress in
                Task { @MainActor in
                    if state.isSyncing { state.syncProgressed(progress) }
                }
            }
            state.syncSuccess(summary, at: environment.now())
            return .success(summary)
        } catch {
            return .failure(TodoError(error))
        }
    }
}
