import Foundation
import TodoCore

/// What `todo list` needs beyond the rows it streams once some todos have
/// subtasks or blockers: which listed subtasks go under a listed parent, and
/// which listed todos are still blocked, and by what.
///
/// A covering partial index lists the linked todos. Whether a parent is
/// listed, and which blockers are open, is looked up by id: for all of them
/// at once when the whole list is shown, else only for the parents and
/// blockers of the linked rows that come (a filtered list shows few), each
/// once. The cost follows the linked todos, never the whole list.
///
/// The rows still stream: a subtask whose parent comes later (the usual
/// case, as a subtask is newer) waits, formatted, and goes right under its
/// parent's row; one whose parent came first goes where it comes, indented.
/// A row is told apart by the first 8 bytes of its ID.
final class TreeListing {
    private let formatter: TodoFormatter
    /// Each linked todo's parent.
    private var parentOf: [UUID: UUID] = [:]
    /// Whether the request lists each parent asked about so far.
    private var listedParents: [UUID: Bool] = [:]
    /// Each blocked todo's blockers.
    private var blockedBy: [UUID: [UUID]] = [:]
    /// The short IDs of the open todos among the blockers asked about so far;
    /// a blocker done or gone is not in it.
    private var openBlockers: [UUID: String] = [:]
    private var blockersAsked = Set<UUID>()
    private let db: any TodoDatabase
    private let request: TodoRequest
    /// The first 8 bytes of the IDs of the todos with a parent or blockers
    /// and of the listed parents, as a number: a row's check is a lookup.
    private var prefixes = Set<UInt64>()
    /// Lines of subtasks waiting for their parent's row, by parent, in list order.
    private var waiting: [UUID: [(id: UUID, line: [UInt8])]] = [:]
    private var printed = Set<UUID>()

    /// Nil when no todo has a parent or a blocker: the list streams as ever.
    init?(db: any TodoDatabase, request: TodoRequest, formatter: TodoFormatter) throws {
        let nodes = try db.linkedTodos()
        guard !nodes.isEmpty else { return nil }
        (self.formatter, self.db, self.request) = (formatter, db, request)
        for node in nodes {
            if let parent = node.parent, parent != node.id { parentOf[node.id] = parent }
            if !node.blockedBy.isEmpty { blockedBy[node.id] = node.blockedBy }
        }
        let parents = Set(parentOf.values)
        if !request.usesPlanningFields, request.query.isEmpty {
            // The whole list (of a status): most parents and blockers are in it.
            let listed = try db.listedIDs(request, among: Array(parents))
            for parent in parents { listedParents[parent] = listed.contains(parent) }
            let blockers = Set(blockedBy.values.joined())
            openBlockers = try db.pendingShortIDs(among: Array(blockers))
            blockersAsked = blockers
        }
        for id in Array(parentOf.keys) + Array(parents) + Array(blockedBy.keys) {
            prefixes.insert(Self.prefix(of: Array(id.lowercasedString.utf8)))
        }
    }

    /// Whether the request lists `parent`, looked up the first time.
    private func isListed(_ parent: UUID) -> Bool {
        if let known = listedParents[parent] { return known }
        let listed = (try? db.listedIDs(request, among: [parent]).contains(parent)) ?? false
        listedParents[parent] = listed
        return listed
    }

    /// The short IDs of the open todos that block `id`, joined ("" for none).
    private func blockers(of id: UUID) -> String {
        guard let ids = blockedBy[id] else { return "" }
        let unknown = ids.filter { !blockersAsked.contains($0) }
        if !unknown.isEmpty {
            for (blocker, shortID) in (try? db.pendingShortIDs(among: unknown)) ?? [:] { openBlockers[blocker] = shortID }
            blockersAsked.formUnion(unknown)
        }
        return ids.compactMap { openBlockers[$0] }.joined(separator: " ")
    }

    private static func prefix(of id: some Collection<UInt8>) -> UInt64 {
        id.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// How many listed parents are above the todo, up the chain.
    private func depth(of id: UUID) -> Int {
        var depth = 0
        var current = id
        while depth < 100, let parent = parentOf[current], isListed(parent) {
            depth += 1
            current = parent
        }
        return depth
    }

    /// Writes the row (and the subtasks waiting for it) or holds it for its
    /// parent.
    func write(_ row: RawTodoRow, to out: OutputBuffer) {
        guard prefixes.contains(Self.prefix(of: row.id)), let id = UUID(parsing: String(decoding: row.id, as: UTF8.self)) else {
            return formatter.write(row, to: out)
        }
        let depth = depth(of: id)
        if depth > 0, let parent = parentOf[id], !printed.contains(parent) {
            // Its parent's row is still to come: formatted now, written under it.
            let line = OutputBuffer.capturing()
            formatter.write(row, to: line, depth: depth, blockedBy: blockers(of: id))
            waiting[parent, default: []].append((id, line.bytes))
            return
        }
        formatter.write(row, to: out, depth: depth, blockedBy: blockers(of: id))
        release(id, to: out)
    }

    /// The subtasks that waited for `id`, and theirs, under it: depth
    /// first, with a stack of its own (a chain may be thousands deep).
    private func release(_ id: UUID, to out: OutputBuffer) {
        printed.insert(id)
        var pending = Array((waiting.removeValue(forKey: id) ?? []).reversed())
        while let (child, line) = pending.popLast() {
            line.withUnsafeBufferPointer { out.write($0) }
            printed.insert(child)
            pending += (waiting.removeValue(forKey: child) ?? []).reversed()
        }
    }

    /// Subtasks still waiting once every row came (their parent listed but
    /// not shown: a cycle a sync is yet to break): written, never lost.
    func finish(to out: OutputBuffer) {
        for parent in Array(waiting.keys).sorted(by: { $0.lowercasedString < $1.lowercasedString }) where waiting[parent] != nil {
            for (child, line) in waiting.removeValue(forKey: parent) ?? [] {
                line.withUnsafeBufferPointer { out.write($0) }
                release(child, to: out)
            }
        }
    }

    /// A list cut at `--limit`, read whole: the tree among its rows.
    static func writeLimited(_ todos: [ListedTodo], db: any TodoDatabase, formatter: TodoFormatter, to out: OutputBuffer) throws {
        let open = try db.pendingShortIDs(among: Array(Set(todos.flatMap(\.item.blockedBy))))
        let byID = Dictionary(todos.map { ($0.item.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in selectTree(todos.map(\.item)) {
            guard let todo = byID[row.item.id] else { continue }
            let blockedBy = row.item.blockedBy.compactMap { open[$0] }.joined(separator: " ")
            RawTodoRow.withRow(of: todo) { formatter.write($0, to: out, depth: row.depth, blockedBy: blockedBy) }
        }
    }
}
