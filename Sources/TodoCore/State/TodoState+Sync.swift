import Foundation

// MARK: - Sync transitions

extension TodoState {
    public func syncRequest() {
        update {
            $0.isSyncing = true
            $0.syncProgress = nil
            $0.error = nil
        }
    }

    public func syncProgressed(_ progress: SyncProgress) {
        update { $0.syncProgress = progress }
    }

    public func syncSuccess(_ summary: SyncSummary, at time: Date? = nil) {
        update {
            $0.isSyncing = false
            $0.lastSync = summary
            $0.error = nil
            if let time { $0.lastSyncedAt = time }
            if $0.live == .offline || $0.live == .failing { $0.live = .connecting }
        }
    }

    /// A live view's sync failed: an unreachable server is shown as offline,
    /// not as an error; any other failure is shown as the error it is.
    public func liveSyncFailed(_ error: TodoError) {
        update {
            $0.isSyncing = false
            if case .unavailable = error {
                $0.live = .offline
            } else {
                $0.live = .failing
                $0.error = error
            }
        }
    }

    /// The live connection's state changed (see `LiveSyncStatus`).
    public func liveStatusChanged(_ status: LiveSyncStatus?) {
        update { $0.live = status }
    }

    public func syncFail(_ error: TodoError) {
        update {
            $0.isSyncing = false
            $0.error = error
        }
    }
}
