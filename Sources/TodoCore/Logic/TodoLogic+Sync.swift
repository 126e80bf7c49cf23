// MARK: - Sync

extension TodoLogic {
    /// Syncs with a server: the state shows it running, its progress, then the
    /// summary or the error. A dry run plans and changes nothing.
    @discardableResult
    public func sync(with syncer: any TodoSyncing, dryRun: Bool = false) async throws(TodoError) -> SyncSummary {
        let state = self.state
        state.syncRequest()
        do {
            let summary = try await syncer.sync(dryRun: dryRun) { progress in
                Task { @MainActor in
                    if state.isSyncing { state.syncProgressed(progress) }
                }
            }
            state.syncSuccess(summary, at: environment.now())
            return summary
        } catch {
            let failure = TodoError(error)
            state.syncFail(failure)
            throw failure
        }
    }
}

extension TodoLogic {
    /// A sync nobody asked for, run by `LiveSync`: as `sync`, but a failure
    /// is recorded as the live view shows it (offline is no error) and
    /// answered, not thrown.
    public func syncInBackground(with syncer: any TodoSyncing) async -> Result<SyncSummary, TodoError> {
        let state = self.state
        state.syncRequest()
        do {
            let summary = try await syncer.sync(dryRun: false) { progress in
                Task { @MainActor in
                    if state.isSyncing { state.syncProgressed(progress) }
                }
            }
            state.syncSuccess(summary, at: environment.now())
            return .success(summary)
        } catch {
            let failure = TodoError(error)
            state.liveSyncFailed(failure)
            return .failure(failure)
        }
    }
}
