// MARK: - A view that stays open

extension TodoLogic {
    /// Loads the part of the list around `anchor` that a view shows, under the
    /// state's filter and query: up to `newer` todos before it and `older`
    /// from it on. Its cost depends on those numbers, not on the list's length.
    ///
    /// With `.quick` effort the window may arrive incomplete (a rare one- or
    /// two-letter query in a long list): it shows what was found, marked as
    /// still searching, and a `.complete` load finishes it. A load whose task
    /// is cancelled, or whose filter or query changed meanwhile, leaves the
    /// state alone. Todos still waiting, or unfinished past their until
    /// date, are left out, as of each load.
    public func loadWindow(
        around anchor: TodoWindow.Anchor, newer: Int, older: Int, effort: TodoWindow.Effort = .complete
    ) async throws(TodoError) {
        let context = state.context
        let request = narrowed(TodoRequest(
            status: state.filter, query: state.query, schedule: .current(at: environment.now(), in: environment.timeZone)
        ), to: context)
        do {
            let window = try await storage.fetchWindow(request, around: anchor, newer: newer, older: older, effort: effort)
            // A query typed meanwhile (or a filter changed) asked for another window.
            guard !Task.isCancelled, request.status == state.filter, request.query == state.query, context == state.context else { return }
            state.windowLoaded(window)
        } catch is CancellationError {
            return
        } catch {
            let failure = TodoError(error)
            state.actionFailed(failure)
            throw failure
        }
    }

    private func narrowed(_ request: TodoRequest, to context: TodoContext?) -> TodoRequest {
        context?.narrowing(request) ?? request
    }

    /// Reads which context is on (a view then loads a window to show it).
    public func loadContext() async throws(TodoError) {
        let context = try await run { [storage] in
            try await storage.activeContext()
        } then: { _ in }
        state.contextLoaded(context)
    }

    /// Shows pending, done or all todos (load a window to see them).
    public func setFilter(_ filter: TodoRequest.Status) {
        state.setFilter(filter)
    }

    /// Loads how many todos are pending and done.
    public func loadCounts() async throws(TodoError) {
        let counts = try await run { [environment, storage] in
            try await storage.countTodos(at: environment.now(), in: environment.timeZone)
        } then: { _ in }
        state.countsLoaded(counts)
    }

    /// Whether another process changed the todos since the last call (the
    /// first call answers false). Cheap: a view can ask every second.
    public func storageChangedElsewhere() async throws(TodoError) -> Bool {
        let token = try await run { [storage] in
            try await storage.changeToken()
        } then: { _ in }
        defer { lastChangeToken = token }
        return lastChangeToken.map { $0 != token } ?? false
    }
}
