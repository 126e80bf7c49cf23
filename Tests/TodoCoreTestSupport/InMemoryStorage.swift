import Foundation
import Synchronization
import TodoCore

/// Storage in memory, for exact inputs and injected faults.
public actor InMemoryStorage: TodoStorage {
    public private(set) var items: [TodoItem]
    public private(set) var storedQuery = ""
    /// When set, every call fails with it.
    public var failure: TodoError?
    /// The order each todo was stored in, as SQLite's rowid.
    private var sequences: [UUID: Int64] = [:]
    private var nextSequence: Int64 = 1
    /// Bumped by changes made "by another process" (see `changeElsewhere`).
    private var token = 0
    /// The undo journal, the latest change last, as SQLite's keeps it.
    public private(set) var journal: [TodoUndo] = []
    /// The changes undo took back, the last one taken back last, for redo.
    private var undone: [TodoUndo] = []

    public init(items: [TodoItem] = []) {
        self.items = items
        for (index, item) in items.enumerated() { sequences[item.id] = Int64(index + 1) }
        nextSequence = Int64(items.count + 1)
    }

    public func fail(with error: TodoError?) {
        failure = error
    }

    /// Changes the todos as another process would: the change token moves.
    public func changeElsewhere(insert added: [TodoItem] = [], delete deleted: [UUID] = []) {
        for item in added {
            items.append(item)
            assignSequence(item.id)
        }
        items.removeAll { deleted.contains($0.id) }
        token += 1
    }

    public func resolve(idPrefixes: [String]) async throws -> [ListedTodo] {
        try check()
        let ids = items.map(\.idString).sorted()
        func listed(_ item: TodoItem) -> ListedTodo {
            let index = ids.firstIndex(of: item.idString)!
            let length = TodoID.uniquePrefixLength(
                of: item.idString,
                previous: index > 0 ? ids[index - 1] : nil,
                next: index + 1 < ids.count ? ids[index + 1] : nil
            )
            return ListedTodo(item: item, idPrefixLength: length)
        }
        return try idPrefixes.map { prefix in
            let found = items.filter { $0.idString.hasPrefix(prefix) }
            guard let first = found.first else { throw TodoError.notFound(prefix) }
            guard found.count == 1 else {
                let candidates = found.sorted { $0.idString < $1.idString }.prefix(IDMatch.listed).map { item in
                    IDMatch(shortID: listed(item).shortID, text: item.text)
                }
                throw TodoError.ambiguousID(prefix, matches: found.count, candidates: candidates)
            }
            return listed(first)
        }
    }

    nonisolated(nonsending) public func readTodos(_ request: TodoRequest, _ body: (TodoItem) throws -> Bool) async throws {
        for item in try await selected(request) {
            guard try body(item) else { return }
        }
    }

    private func selected(_ request: TodoRequest) throws -> [TodoItem] {
        try check()
        // In list order, as `selectRequestedTodos` takes them.
        return selectRequestedTodos(items: listedRows(TodoRequest(status: .all)).map(\.item), request: request)
    }

    public func links() async throws -> [TodoLinks.Node] {
        try check()
        return items.filter { $0.parent != nil || !$0.blockedBy.isEmpty }.map(TodoLinks.Node.init)
    }

    public func todos(ids: [TodoItem.ID]) async throws -> [TodoItem] {
        try check()
        let wanted = Set(ids)
        return items.filter { wanted.contains($0.id) }
    }

    public func subtasks(of ids: [TodoItem.ID]) async throws -> [TodoItem] {
        try check()
        return selectSubtasks(items: items, of: ids)
    }

    public func insert(_ item: TodoItem) async throws {
        try check()
        items.append(item)
        assignSequence(item.id)
        record(.add, [TodoUndo.Change(id: item.id, before: nil, after: item)])
    }

    public func update(_ changed: [TodoItem]) async throws {
        try await update(changed, addingIfAbsent: [])
    }

    public func update(_ changed: [TodoItem], addingIfAbsent new: [TodoItem]) async throws {
        try check()
        for item in changed where !items.contains(where: { $0.id == item.id }) {
            throw TodoError.notFound(item.idString)
        }
        var changes: [TodoUndo.Change] = []
        for item in changed {
            let index = items.firstIndex { $0.id == item.id }!
            changes.append(TodoUndo.Change(id: item.id, before: items[index], after: item))
            items[index] = item
        }
        for item in new where !items.contains(where: { $0.id == item.id }) {
            items.append(item)
            assignSequence(item.id)
            changes.append(TodoUndo.Change(id: item.id, before: nil, after: item))
        }
        record(.update, changes)
    }

    public func delete(ids: [TodoItem.ID]) async throws {
        try check()
        for id in ids where !items.contains(where: { $0.id == id }) {
            throw TodoError.notFound(id.uuidString.lowercased())
        }
        record(.delete, items.filter { ids.contains($0.id) }.map { TodoUndo.Change(id: $0.id, before: $0, after: nil) })
        items.removeAll { ids.contains($0.id) }
    }

    public func undoHistory(limit: Int) async throws -> [TodoUndo] {
        try check()
        return Array(journal.reversed().prefix(limit))
    }

    public func undoLast(
        force: Bool, after position: Int?, at date: Date, dryRun: Bool, progress: @escaping @Sendable (TodoUndo.Progress) -> Void
    ) async throws -> TodoUndo {
        try check()
        guard let step = journal.last else { throw position == nil ? TodoError.nothingToUndo : TodoError.nothingToUndoInView }
        if let position, step.number <= position { throw TodoError.nothingToUndoInView }
        if !force, let changed = step.changes.first(where: { $0.isOverwritten(by: current($0.id)) }) {
            throw conflict(step, changed)
        }
        if dryRun {
            var taken = step
            taken.restored = step.changes.compactMap { $0.restoring(onto: current($0.id), published: nil, at: date) }
            return taken
        }
        journal.removeLast()
        undone.append(step)
        var taken = step
        taken.restored = write(step.changes, at: date)
        return taken
    }

    public func redoLast(at date: Date, progress: @escaping @Sendable (TodoUndo.Progress) -> Void) async throws -> TodoUndo {
        try check()
        guard let step = undone.last else { throw TodoError.nothingToRedo }
        if let changed = step.reversed.changes.first(where: { $0.isOverwritten(by: current($0.id)) }) {
            throw conflict(step, changed)
        }
        undone.removeLast()
        journal.append(step)
        var redone = step
        redone.restored = write(step.reversed.changes, at: date)
        return redone
    }

    public func undoPosition() async throws -> Int {
        try check()
        return journal.last?.number ?? 0
    }

    private func current(_ id: UUID) -> TodoItem? {
        items.first { $0.id == id }
    }

    private func conflict(_ step: TodoUndo, _ changed: TodoUndo.Change) -> TodoError {
        let item = current(changed.id) ?? changed.after ?? changed.before
        return TodoError.undoConflict(change: step.summary, text: item?.text ?? "", id: String(changed.id.lowercasedString.prefix(8)))
    }

    /// Writes back each change's "before", as SQLite's storage does; returns the todos written.
    private func write(_ changes: [TodoUndo.Change], at date: Date) -> [TodoItem] {
        var written: [TodoItem] = []
        for change in changes {
            guard let item = change.restoring(onto: current(change.id), published: nil, at: date) else {
                items.removeAll { $0.id == change.id }
                continue
            }
            written.append(item)
            if let index = items.firstIndex(where: { $0.id == item.id }) {
                items[index] = item
            } else {
                items.append(item)
                assignSequence(item.id)
            }
        }
        return written
    }

    /// Journals a change, leaving out todos it left as they were, as SQLite's journal does.
    private func record(_ kind: TodoUndo.Kind, _ changes: [TodoUndo.Change]) {
        let changes = changes.filter { !$0.isNoChange }
        guard !changes.isEmpty else { return }
        undone = []
        journal.append(TodoUndo(number: max(journal.last?.number ?? 0, undone.last?.number ?? 0) + 1, at: changes[0].after?.updatedAt ?? Date(), kind: kind, changes: changes))
    }

    public func lastQuery() async throws -> String {
        try check()
        return storedQuery
    }

    public func setLastQuery(_ query: String) async throws {
        try check()
        storedQuery = query
    }

    /// The context `activeContext` answers.
    public var context: TodoContext?

    public func setContext(_ context: TodoContext?) {
        self.context = context
    }

    public func activeContext() async throws -> TodoContext? {
        try check()
        return context
    }

    /// A `.quick` load of a query at the top of the list reads only this
    /// many todos of the list, as SQLite's bounded walk does, and answers an
    /// incomplete window if it did not find the rows asked for.
    public var quickSearchLimit: Int?
    /// How long a `.complete` load of a query takes (cancelling it ends it).
    public var completeSearchDelay: Duration?

    public func slowSearches(quickLimit: Int?, completeDelay: Duration?) {
        quickSearchLimit = quickLimit
        completeSearchDelay = completeDelay
    }

    public func fetchWindow(
        _ request: TodoRequest, around anchor: TodoWindow.Anchor, newer: Int, older: Int, effort: TodoWindow.Effort
    ) async throws -> TodoWindow {
        if !request.query.isEmpty, effort == .quick, anchor == .top, let limit = quickSearchLimit {
            try check()
            let walked = listedRows(TodoRequest(status: request.status)).prefix(limit)
            let found = walked.filter { $0.item.matches(request.query) }
            if walked.count == limit, found.count <= older {
                return TodoWindow(rows: Array(found), hasNewer: false, hasOlder: false, isComplete: false)
            }
        }
        if !request.query.isEmpty, effort == .complete, let completeSearchDelay {
            try await Task.sleep(for: completeSearchDelay)
        }
        try check()
        let rows = listedRows(request)
        let split = switch anchor {
        case .top: 0
        case .bottom: rows.count
        case .position(let position): rows.firstIndex { !($0.position < position) } ?? rows.count
        }
        return TodoWindow.assembled(
            newer: Array(rows[..<split].reversed().prefix(newer + 1)),
            older: Array(rows[split...].prefix(older + 1)),
            newerLimit: newer, olderLimit: older
        )
    }

    public func nextTodos(_ request: NextRequest) async throws -> [RankedTodo] {
        try check()
        let ranked = selectNextTodos(items: items, request: request)
        let listed = try await resolve(idPrefixes: ranked.map(\.item.idString))
        return zip(ranked, listed).map { RankedTodo(todo: $1, urgency: $0.urgency) }
    }

    public func countTodos(at now: Date, in timeZone: TimeZone) async throws -> TodoCounts {
        try check()
        return selectCounts(items: items, now: now, timeZone: timeZone)
    }

    public func changeToken() async throws -> Int {
        try check()
        return token
    }

    /// Every todo the request selects, as rows in list order.
    private func listedRows(_ request: TodoRequest) -> [TodoWindow.Row] {
        let ids = items.map(\.idString).sorted()
        let indexes = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        return items
            .filter { request.includes($0) }
            .map { item in
                let index = indexes[item.idString]!
                return TodoWindow.Row(
                    item: item,
                    position: TodoPosition(createdAt: item.createdAt.millisecondsSince1970, sequence: sequences[item.id]!),
                    shortIDLength: TodoID.uniquePrefixLength(
                        of: item.idString,
                        previous: index > 0 ? ids[index - 1] : nil,
                        next: index + 1 < ids.count ? ids[index + 1] : nil
                    )
                )
            }
            .sorted { $0.position < $1.position }
    }

    private func assignSequence(_ id: UUID) {
        sequences[id] = nextSequence
        nextSequence += 1
    }

    private func check() throws {
        if let failure { throw failure }
    }
}

/// A clock and UUID source that give the same values on every run: the clock
/// moves one second per reading, UUIDs count up from ...0001.
public final class FixedEnvironment: Sendable {
    public let start = Date(millisecondsSince1970: 1_790_000_000_000)
    private let ticks = Counter()
    private let uuids = Counter()

    /// The date the clock gives on its `n`th reading.
    public init() {}

    public func date(_ n: Int) -> Date {
        Date(millisecondsSince1970: start.millisecondsSince1970 + Int64(n) * 1000)
    }

    public var environment: TodoEnvironment {
        let ticks = ticks
        let uuids = uuids
        let start = start.millisecondsSince1970
        return TodoEnvironment(
            now: { Date(millisecondsSince1970: start + Int64(ticks.next()) * 1000) },
            uuid: { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", uuids.next()))! }
        )
    }
}

/// A thread-safe counter for the fixed environment.
public final class Counter: Sendable {
    private let count = Mutex(0)
    public init() {}
    public func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
