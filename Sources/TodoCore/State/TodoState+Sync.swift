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

    public func syncSuccess(_ summary: SyncSummary) {
        update {
            $0.isSyncing = false
            $0.lastSync = summary
            $0.error = nil
        }
    }

    public func syncFail(_ error: TodoError) {
        update {
            $0.isSyncing = false
            $0.error = error
        }
    }
}
