import Foundation
import TodoCore
import TodoStorage

/// What `todo list` needs beyond the rows it streams once some todos have
/// subtasks or blockers: which listed todos go under a listed parent (held
/// back from the stream, printed under it), and which listed todos are
/// still blocked, and by what.
///
/// Only the linked todos (a partial index finds them) are read as todos and
/// checked against the request (`TodoRequest.includes`, the filters' pure
/// form); every other row streams as before, checked by the first 8 bytes
/// of its ID.
struct TreeListing {
    /// The listed todos printed from here, not from their rows: those with a
    /// parent, blockers or listed subtasks, by ID.
    private var linked: [String: ListedTodo] = [:]
    /// Listed subtasks of each listed parent, in list order.
    private var subtasks: [String: [ListedTodo]] = [:]
    /// Listed todos printed under their parent, not where their row comes.
    private var held = Set<String>()
    /// The short IDs of each listed todo's open blockers.
    private var openBlockers: [String: [String]] = [:]
    /// The first 8 bytes of every ID in `linked`, as a number: a row's
    /// check costs one set lookup.
    private var prefixes = Set<UInt64>()

    /// Nil when no todo has a parent or a blocker: the list streams as ever.
    init?(db: AppDatabase, request: TodoRequest) throws {
        let nodes = try db.linkedTodos()
        guard !nodes.isEmpty else { return nil }
        var ids = Set(nodes.map(\.id))
        for node in nodes {
            if let parent = node.parent { ids.insert(parent) }
            ids.formUnion(node.blockedBy)
        }
        let all = try db.listedTodos(withIDs: Array(ids))
        let open = Set(all.filter { !$0.item.isDone }.map(\.item.id))
        let shortIDs = Dictionary(all.map { ($0.item.id, $0.shortID) }, uniquingKeysWith: { first, _ in first })
        var unlimited = request
        unlimited.limit = nil
        let listed = selectRequestedTodos(items: all.map(\.item), request: unlimited)
        let byID = Dictionary(all.map { ($0.item.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in selectTree(listed) where row.depth > 0 || row.subtasks > 0
            || row.item.parent != nil || !row.item.blockedBy.isEmpty {
            guard let todo = byID[row.item.id] else { continue }
            let id = todo.item.idString
            linked[id] = todo
            prefixes.insert(Self.prefix(of: Array(id.utf8)))
            if row.depth > 0, let parent = todo.item.parent {
                held.insert(id)
                subtasks[parent.lowercasedString, default: []].append(todo)
            }
            let blockers = todo.item.blockedBy.filter(open.contains).compactMap { shortIDs[$0] }
            if !blockers.isEmpty { openBlockers[id] = blockers }
        }
    }

    private static func prefix(of id: some Collection<UInt8>) -> UInt64 {
        id.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Prints the row's todo (and what goes under it) if it is one of the
    /// linked ones, and answers true; false for a row to print as it is.
    func handles(_ row: RawTodoRow, formatter: TodoFormatter, to out: OutputBuffer) -> Bool {
        guard prefixes.contains(Self.prefix(of: row.id)) else { return false }
        let id = String(decoding: row.id, as: UTF8.self)
        guard let todo = linked[id] else { return false }
        if !held.contains(id) { write(todo, depth: 0, formatter: formatter, to: out) }
        return true
    }

    /// A todo and its listed subtasks, each level indented further.
    func write(_ todo: ListedTodo, depth: Int, formatter: TodoFormatter, to out: OutputBuffer) {
        let id = todo.item.idString
        formatter.write(todo, depth: depth, blockedBy: openBlockers[id] ?? [], to: out)
        for subtask in subtasks[id] ?? [] where depth < 100 {
            write(subtask, depth: depth + 1, formatter: formatter, to: out)
        }
    }

    /// A list cut at `--limit`, read whole: the tree among its rows.
    static func writeLimited(_ todos: [ListedTodo], db: AppDatabase, formatter: TodoFormatter, to out: OutputBuffer) throws {
        let blockerIDs = Array(Set(todos.flatMap(\.item.blockedBy)))
        let blockers = try db.listedTodos(withIDs: blockerIDs)
        let openShort = Dictionary(
            blockers.filter { !$0.item.isDone }.map { ($0.item.id, $0.shortID) }, uniquingKeysWith: { first, _ in first }
        )
        let byID = Dictionary(todos.map { ($0.item.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in selectTree(todos.map(\.item)) {
            guard let todo = byID[row.item.id] else { continue }
            formatter.write(todo, depth: row.depth, blockedBy: row.item.blockedBy.compactMap { openShort[$0] }, to: out)
        }
    }
}
