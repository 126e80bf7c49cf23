/// The actions a user takes: each calls storage, then drives the state.
///
/// Every action updates the state before it returns. A failure is recorded in
/// `state.error` and also thrown, so a view can show it and a command line can
/// exit with it; nothing is swallowed.
@MainActor
public final class TodoLogic {
    public let state: TodoState
    let storage: any TodoStorage
    /// The clock, ids and time zone it works with: a view reads the dates
    /// typed in it at the same clock.
    public let environment: TodoEnvironment
    /// Storage's change token when last asked (see `storageChangedElsewhere`).
    var lastChangeToken: Int?

    public init(state: TodoState, storage: any TodoStorage, environment: TodoEnvironment = .live) {
        self.state = state
        self.storage = storage
        self.environment = environment
    }
}

// MARK: - Actions

extension TodoLogic {
    /// Creates a todo from `text` and the planning fields in `fields` and
    /// stores it; the query is cleared, so a view's next window shows it.
    /// A context that is on (`loadContext`) gives it its project and tags;
    /// a subtask not given a project takes its parent's.
    /// A dry run answers the todo it would store, and changes nothing (this
    /// holds for every action that takes `dryRun`).
    @discardableResult
    public func addTodo(text: String, fields: TodoEdit = TodoEdit(), dryRun: Bool = false) async throws(TodoError) -> TodoItem {
        let context = state.context
        return try await run { [environment, storage] in
            let now = environment.now()
            var fields = try await Self.resolvingIDs(context?.filling(fields) ?? fields, in: storage)
            fields.text = text
            // A subtask is of its parent's project, unless it was given one.
            if fields.project == nil, case let .some(.some(parent)) = fields.parent {
                fields.project = try await Self.resolveDistinct([parent], in: storage)[0].project.map { .some($0) }
            }
            var item = try TodoItem(id: environment.uuid(), text: "-", createdAt: now).applying(fields, at: now)
            // As created: none of its fields was edited yet.
            item.editedAt = FieldTimes()
            guard !dryRun else { return item }
            try await storage.insert(item)
            // Adding clears the query; remember that, so recovering it gives "" too.
            if try await storage.lastQuery() != "" {
                try await storage.setLastQuery("")
            }
            return item
        } then: { _ in
            if !dryRun { self.state.todoAdded() }
        }
    }

    /// Sets the search query and, unless `remember` is false (a query still
    /// being typed), remembers it for next time.
    public func setQuery(_ query: String, remember: Bool = true) async throws(TodoError) {
        state.setQuery(query)
        guard remember else { return }
        try await run { [storage] in
            try await storage.setLastQuery(query)
        } then: { _ in }
    }

    /// Restores the query the user last searched for.
    public func recoverLastQuery() async throws(TodoError) {
        let query = try await run { [storage] in
            try await storage.lastQuery()
        } then: { _ in }
        state.setQuery(query)
    }

    /// Marks todos done (or not done), all or none.
    @discardableResult
    public func setDone(_ done: Bool, idPrefixes: [String]) async throws(TodoError) -> [TodoItem] {
        try await setDoneBringingNext(done, idPrefixes: idPrefixes).changed
    }

    /// Marks todos done (or not done), all or none; returns them, and the next
    /// occurrences completing repeating ones brought, with fresh copies of
    /// their subtasks. Completing a todo with open subtasks throws
    /// `.openSubtasks`, unless `withSubtasks`: then they are completed too.
    /// A todo already so (`already`) is left as it is: not stamped again, and
    /// with nothing to change nothing is written.
    @discardableResult
    public func setDoneBringingNext(
        _ done: Bool, idPrefixes: [String], withSubtasks: Bool = false, dryRun: Bool = false
    ) async throws(TodoError) -> (changed: [TodoItem], next: [TodoItem], already: [TodoItem]) {
        let (_, changed, next, already) = try await run { [environment, storage] in
            let named = try await Self.resolveDistinct(idPrefixes, in: storage)
            let already = named.filter { $0.isDone == done }
            var items = named.filter { $0.isDone != done }
            guard !items.isEmpty else { return ([TodoItem](), [TodoItem](), [TodoItem](), already) }
            let now = environment.now()
            let subtasks = done ? try await storage.subtasks(of: items.map(\.id)) : []
            if !subtasks.isEmpty {
                let named = Set(items.map(\.id))
                let open = subtasks.filter { !$0.isDone && !named.contains($0.id) }
                if !open.isEmpty, !withSubtasks {
                    // The first named todo with an open todo anywhere below it.
                    let parent = items.first { item in
                        selectSubtasks(items: subtasks, of: [item.id]).contains { !$0.isDone && !named.contains($0.id) }
                    } ?? items[0]
                    throw TodoError.openSubtasks(parent: IDMatch(shortID: String(parent.idString.prefix(8)), text: parent.text), open: open.count)
                }
                items += open
            }
            let changed = items.map { $0.marking(done: done, at: now) }
            // Completing a repeating todo brings its next occurrence, and
            // fresh copies of its subtasks under it; a subtask completed with
            // a repeating todo above it comes back as that copy, not twice.
            let repeating = done ? items.filter { !$0.isDone && $0.recurrence != nil && $0.due != nil }.map(\.id) : []
            let copiedAlong = Set(repeating.flatMap { selectSubtasks(items: subtasks, of: [$0]).map(\.id) })
            let next = done ? zip(items, changed).flatMap { original, item -> [TodoItem] in
                guard !original.isDone, !copiedAlong.contains(item.id),
                      let next = item.nextOccurrence(at: now, in: environment.timeZone) else { return [] }
                let own = selectSubtasks(items: subtasks, of: [item.id])
                return [next] + item.subtaskCopies(own, under: next, at: now, in: environment.timeZone)
            } : []
            if !dryRun { try await storage.update(changed, addingIfAbsent: next) }
            return (items, changed, next, already)
        } then: { _, changed, _, _ in
            // A next occurrence shows once a window reloads; unlike an add, it
            // keeps the query a person typed.
            if !dryRun, !changed.isEmpty { self.state.updateTodos(changed) }
        }
        return (changed, next, already)
    }

    /// Replaces a todo's text.
    @discardableResult
    public func editTodo(idPrefix: String, text: String) async throws(TodoError) -> TodoItem {
        try await editTodo(idPrefix: idPrefix, edit: TodoEdit(text: text))
    }

    /// Adds a line to a todo's note, today's date and then `text`, as
    /// Taskwarrior's annotations (and as imported ones read).
    @discardableResult
    public func annotate(idPrefix: String, text: String, dryRun: Bool = false) async throws(TodoError) -> TodoItem {
        let line = try TodoText.validated(text)
        let item = try await todos(idPrefixes: [idPrefix])[0].item
        let dated = CalendarDay(environment.now(), in: environment.timeZone).description + " " + line
        let note = item.note.map { $0.hasSuffix("\n") ? $0 + dated : $0 + "\n" + dated } ?? dated
        return try await editTodo(idPrefix: item.idString, edit: TodoEdit(note: .some(note)), dryRun: dryRun)
    }

    /// Changes a todo's text and planning fields, all checked before anything is written.
    @discardableResult
    public func editTodo(idPrefix: String, edit: TodoEdit, dryRun: Bool = false) async throws(TodoError) -> TodoItem {
        let (_, edited) = try await run { [environment, storage] in
            if let text = edit.text { _ = try TodoText.validated(text) }
            let prefixes = try Self.normalized([idPrefix])
            try await Self.refuseShortPrefixes(prefixes, in: storage)
            let items = try await storage.resolve(idPrefixes: prefixes).map(\.item)
            let edit = try await Self.resolvingIDs(edit, in: storage, blockedBy: items[0].blockedBy)
            let edited = try items[0].applying(edit, at: environment.now())
            if edit.addsLinks { try await Self.refuseCycles([edited], adding: edit, in: storage) }
            if !dryRun { try await storage.update([edited]) }
            return (items[0], edited)
        } then: { _, edited in
            if !dryRun { self.state.updateTodos([edited]) }
        }
        return edited
    }

    /// Applies one edit of their fields to many todos, all or none, in one
    /// change (one undo takes it back): each todo's own tags are removed
    /// where it has them, so `--untag` over a filter skips those without.
    /// Returns each todo before and after.
    @discardableResult
    public func editTodos(idPrefixes: [String], edit: TodoEdit, dryRun: Bool = false) async throws(TodoError) -> [(before: TodoItem, after: TodoItem)] {
        let pairs = try await run { [environment, storage] in
            if let text = edit.text { _ = try TodoText.validated(text) }
            let items = try await Self.resolveDistinct(idPrefixes, in: storage)
            let edit = try await Self.resolvingIDs(edit, in: storage, blockedBy: items.flatMap(\.blockedBy))
            let now = environment.now()
            let pairs = try items.map { item throws(TodoError) in
                var own = edit
                own.removeTags = edit.removeTags.filter { raw in item.tags.contains((try? TodoTags.validated(raw)) ?? raw) }
                return (before: item, after: try item.applying(own, at: now))
            }
            let changed = pairs.filter { $0.before != $0.after }.map(\.after)
            if edit.addsLinks { try await Self.refuseCycles(changed, adding: edit, in: storage) }
            if !dryRun, !changed.isEmpty { try await storage.update(changed) }
            return pairs
        } then: { pairs in
            if !dryRun { self.state.updateTodos(pairs.map(\.after)) }
        }
        return pairs
    }

    /// Starts the todos (`started`: Taskwarrior's `task start`), each active
    /// from now (to the second), or stops them (`task stop`), all in one change. A todo
    /// already so, or (to start) done, is left as it is: returned apart.
    public func setStarted(
        _ started: Bool, idPrefixes: [String], dryRun: Bool = false
    ) async throws(TodoError) -> (changed: [(before: TodoItem, after: TodoItem)], unchanged: [TodoItem]) {
        try await run { [environment, storage] in
            let items = try await Self.resolveDistinct(idPrefixes, in: storage)
            let unchanged = items.filter { started ? $0.start != nil || $0.isDone : $0.start == nil }
            let now = environment.now()
            // To the second, as Taskwarrior and iCalendar keep it: every copy holds the same start.
            let edit = TodoEdit(start: .some(started ? .moment(now.wholeSecond) : nil))
            let changed = try items.filter { !unchanged.contains($0) }.map { item throws(TodoError) in
                (before: item, after: try item.applying(edit, at: now))
            }
            if !dryRun, !changed.isEmpty { try await storage.update(changed.map(\.after)) }
            return (changed, unchanged)
        } then: { result in
            if !dryRun { self.state.updateTodos(result.changed.map(\.after)) }
        }
    }

    /// Deletes todos, all or none.
    @discardableResult
    public func deleteTodos(idPrefixes: [String], dryRun: Bool = false) async throws(TodoError) -> [TodoItem] {
        try await run { [storage] in
            let items = try await Self.resolveDistinct(idPrefixes, in: storage)
            if !dryRun { try await storage.delete(ids: items.map(\.id)) }
            return items
        } then: { deleted in
            if !dryRun { self.state.deleteTodos(deleted) }
        }
    }

    /// Refuses a prefix too short to name a todo for a change (see
    /// `refuseShortPrefixes`), for a command that resolves the prefixes itself.
    public func checkPrefixesForChange(_ idPrefixes: [String]) async throws(TodoError) {
        try await run { [storage] in
            try await Self.refuseShortPrefixes(try Self.normalized(idPrefixes), in: storage)
        } then: { _ in }
    }

    /// The todos the prefixes name, each once, for a change: `done 6a23 6a23`
    /// (or `6a23 6a23f8`) names one todo; a prefix shorter than IDs are shown
    /// is refused.
    nonisolated(nonsending) static func resolveDistinct(
        _ idPrefixes: [String], in storage: any TodoStorage
    ) async throws -> [TodoItem] {
        let prefixes = try normalized(idPrefixes)
        try await refuseShortPrefixes(prefixes, in: storage)
        let items = try await storage.resolve(idPrefixes: prefixes).map(\.item)
        return TodoID.distinct(items, by: \.id)
    }

    /// Refuses, with the todos it matches, a prefix shorter than any ID is
    /// ever shown: a habit from numbered task lists (`todo rm 9`) must not
    /// change whichever todo happens to start with 9.
    nonisolated(nonsending) static func refuseShortPrefixes(_ prefixes: [String], in storage: any TodoStorage) async throws {
        for prefix in prefixes where prefix.utf8.count < TodoID.minimumPrefixLength {
            let matches: Int
            let candidates: [IDMatch]
            do {
                let item = try await storage.resolve(idPrefixes: [prefix])[0].item
                (matches, candidates) = (1, [IDMatch(shortID: String(item.idString.prefix(8)), text: item.text)])
            } catch let TodoError.ambiguousID(_, count, listed) {
                (matches, candidates) = (count, listed)
            }
            throw TodoError.prefixTooShort(prefix, matches: matches, candidates: candidates)
        }
    }
}

// MARK: - Running effects

extension TodoLogic {
    /// Runs an effect; on success applies its result to the state, on failure
    /// records the error in the state and throws it.
    ///
    /// The effect runs on the main actor, and storage runs on its caller's
    /// actor (`nonisolated(nonsending)`): no hop to another thread and back,
    /// which for a command line is most of what a small write costs in
    /// threads and context switches.
    func run<Value: Sendable>(
        _ effect: () async throws -> Value,
        then apply: (Value) -> Void
    ) async throws(TodoError) -> Value {
        do {
            let value = try await effect()
            apply(value)
            return value
        } catch {
            let failure = TodoError(error)
            state.actionFailed(failure)
            throw failure
        }
    }

    nonisolated static func normalized(_ prefixes: [String]) throws(TodoError) -> [String] {
        guard !prefixes.isEmpty else { throw .invalidID("") }
        var normalized: [String] = []
        for prefix in prefixes {
            normalized.append(try TodoID.normalizedPrefix(prefix))
        }
        return normalized
    }
}
