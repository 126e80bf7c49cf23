import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: Windows of the list

extension AppDatabase {
    /// Part of the list a request selects, around `anchor`: `TodoStorage.fetchWindow`.
    ///
    /// Each side is read from the anchor outwards by keyset, `(createdAt, seq)`,
    /// never by OFFSET, so a window deep in a million todos costs what the
    /// first one does. Both sides are read in one transaction. `walkLimit` is
    /// for tests (see `searchWalkLimit`).
    public func listWindow(
        _ request: TodoRequest, around anchor: TodoWindow.Anchor, newer: Int, older: Int,
        effort: TodoWindow.Effort = .complete, walkLimit: Int = searchWalkLimit
    ) throws -> TodoWindow {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Self.window(db, request, around: anchor, newer: newer, older: older, effort: effort, walkLimit: walkLimit)
            }
        }
    }

    static func window(
        _ db: Database, _ request: TodoRequest, around anchor: TodoWindow.Anchor, newer: Int, older: Int,
        effort: TodoWindow.Effort, walkLimit: Int = searchWalkLimit
    ) throws -> TodoWindow {
        let position: TodoPosition? = if case .position(let position) = anchor { position } else { nil }
        let newerSide = anchor == .top ? Side.empty : try windowSide(
            db, request, from: position, .newer, count: newer + 1, effort: effort, walkLimit: walkLimit
        )
        let olderSide = anchor == .bottom ? Side.empty : try windowSide(
            db, request, from: position, .older, count: older + 1, effort: effort, walkLimit: walkLimit
        )
        return TodoWindow.assembled(
            newer: newerSide.rows, older: olderSide.rows, newerLimit: newer, olderLimit: older,
            isComplete: newerSide.isComplete && olderSide.isComplete
        )
    }

    /// SQLite's `data_version`: it changes when another connection commits,
    /// and only then. Reading it touches no table.
    public func dataVersion() throws -> Int {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        }
    }
}

// MARK: - Window queries

extension AppDatabase {
    /// Which way a side of a window is read from its anchor.
    enum Direction {
        /// Towards the top of the list: the anchor excluded, nearest first.
        case newer
        /// Towards the bottom: the anchor included, nearest first.
        case older

        var order: String {
            switch self {
            case .newer: "ORDER BY todo.createdAt, todo.seq"
            case .older: "ORDER BY todo.createdAt DESC, todo.seq DESC"
            }
        }
    }

    /// How many todos a search walks in list order, testing each one's search
    /// key from the index, before it asks the trigram index instead. A query
    /// that matches often fills a window within a few hundred; one that
    /// matches rarely is cheaper to find from the index, whose hits are sorted.
    public static let searchWalkLimit = 20_000

    /// The rows read on one side of an anchor, and whether the search for
    /// them went as far as it had to.
    struct Side {
        var rows: [TodoWindow.Row]
        /// Where a walk that stopped early stopped (it read this far, this
        /// row included); nil when the search was complete.
        var stoppedAt: TodoPosition?

        var isComplete: Bool { stoppedAt == nil }

        static let empty = Side(rows: [])
    }

    /// Up to `count` rows on one side of `position` (from the top, or from the
    /// bottom for `.newer`, when nil), nearest first.
    static func windowSide(
        _ db: Database, _ request: TodoRequest, from position: TodoPosition?, _ direction: Direction, count: Int,
        effort: TodoWindow.Effort, walkLimit: Int
    ) throws -> Side {
        guard count > 0 else { return .empty }
        let key = TodoItem.searchKey(request.query)
        let statuses: [Bool?] = switch request.status {
        case .pending: [false]
        case .done: [true]
        // A search walks one covering index per status (the createdAt index
        // holds no search key), and the two runs are merged.
        case .all: key.isEmpty ? [nil] : [false, true]
        }
        var rows: [TodoWindow.Row] = []
        var stops: [TodoPosition] = []
        for isDone in statuses {
            var conditions = SQLConditions()
            if let isDone { conditions.add("todo.isDone = ?", isDone) }
            if let (condition, values) = scheduleCondition(request.schedule) { conditions.add(condition, values) }
            // A context's filters: its project, its tags and those it leaves out.
            if let project = request.project {
                let (condition, values) = projectCondition(project)
                conditions.add(condition, values)
            }
            for tag in request.tags {
                conditions.add("EXISTS (SELECT 1 FROM todoTag AS other WHERE other.seq = todo.seq AND other.tag = ?)", tag)
            }
            for tag in request.excludedTags {
                conditions.add("NOT EXISTS (SELECT 1 FROM todoTag AS other WHERE other.seq = todo.seq AND other.tag = ?)", tag)
            }
            if let position { conditions.add(keyset: position, direction == .newer ? ">" : "<=") }
            let found = try search(db, request, key: key, conditions, direction, count: count, effort: effort, walkLimit: walkLimit)
            rows += found.rows
            stops += found.stoppedAt.map { [$0] } ?? []
        }
        // Nearest first: in list order going older, against it going newer.
        let isNearer = { (a: TodoPosition, b: TodoPosition) in direction == .older ? a < b : b < a }
        guard statuses.count > 1 else { return Side(rows: Array(rows.prefix(count)), stoppedAt: stops.first) }
        rows.sort { isNearer($0.position, $1.position) }
        // A status whose walk stopped early may hide rows nearer than the
        // other's: only rows up to the nearest stop are certain.
        guard let stop = stops.min(by: isNearer) else { return Side(rows: Array(rows.prefix(count))) }
        return Side(rows: Array(rows.prefix { !isNearer(stop, $0.position) }.prefix(count)), stoppedAt: stop)
    }

    /// The rows matching `request.query` under `conditions`, nearest first.
    private static func search(
        _ db: Database, _ request: TodoRequest, key: String, _ conditions: SQLConditions, _ direction: Direction,
        count: Int, effort: TodoWindow.Effort, walkLimit: Int
    ) throws -> Side {
        guard !key.isEmpty else {
            // No query (or one of combining marks only, which Swift decides).
            return Side(rows: try rows(db, from: "todo", conditions, direction, request.query, count: count))
        }
        var matching = conditions
        matching.add(containsKeyCondition, likePattern(containing: key))
        // First a bounded walk: the row `walkLimit` steps away bounds it.
        let boundary = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT todo.createdAt, todo.seq FROM todo \(conditions.whereClause) \(direction.order) LIMIT 1 OFFSET \(walkLimit)"),
            arguments: conditions.arguments
        ).map { TodoPosition(createdAt: $0[0], sequence: $0[1]) }
        var walk = matching
        if let boundary { walk.add(keyset: boundary, direction == .newer ? "<=" : ">=") }
        let walked = try rows(db, from: "todo", walk, direction, request.query, count: count)
        guard walked.count < count, boundary != nil else { return Side(rows: walked) }
        // Rare matches: from the trigram index if the key is long enough, else
        // by walking on, unless the caller wants an answer now.
        let trigrams = trigrams(key)
        guard !trigrams.isEmpty else {
            if effort == .quick, let boundary { return Side(rows: walked, stoppedAt: boundary) }
            return Side(rows: try rows(db, from: "todo", matching, direction, request.query, count: count))
        }
        var indexed = matching
        indexed.add("todoSearch MATCH ?", trigrams.map(quotedFTSString).joined(separator: " AND "))
        return Side(rows: try rows(
            db, from: "todoSearch CROSS JOIN todo ON todo.seq = todoSearch.rowid", indexed, direction, request.query, count: count
        ))
    }

    /// Runs one window query and confirms each candidate with `matches`, as
    /// listing does, until `count` rows are found.
    private static func rows(
        _ db: Database, from tables: String, _ conditions: SQLConditions, _ direction: Direction, _ query: String, count: Int
    ) throws -> [TodoWindow.Row] {
        let sql = "SELECT \(TodoItem.selection), todo.seq FROM \(tables) \(conditions.whereClause) \(direction.order)"
        // Without a query nothing is confirmed: SQLite can stop at the count.
        let limit = query.isEmpty ? " LIMIT \(count)" : ""
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql + limit), arguments: conditions.arguments)
        var rows: [TodoWindow.Row] = []
        while rows.count < count, let row = try cursor.next() {
            guard let item = TodoItem(row: row), item.matches(query) else { continue }
            rows.append(TodoWindow.Row(
                item: item,
                position: TodoPosition(createdAt: row[3], sequence: row[TodoItem.selectionCount]),
                shortIDLength: row[6]
            ))
        }
        return rows
    }
}

/// A WHERE clause built from parts, with its arguments in order.
struct SQLConditions {
    private var parts: [String] = []
    private(set) var arguments = StatementArguments()

    mutating func add(_ condition: String, _ values: any DatabaseValueConvertible...) {
        parts.append(condition)
        _ = arguments.append(contentsOf: StatementArguments(values))
    }

    mutating func add(_ condition: String, _ values: StatementArguments) {
        parts.append(condition)
        _ = arguments.append(contentsOf: values)
    }

    /// The todos on one side of `position` in (createdAt, seq) order: `op` is
    /// how their pair compares with the position's (`<=`, `>`, `>=`). Spelled
    /// out, with a plain range on createdAt first, so SQLite starts the walk
    /// at the position instead of at the top.
    mutating func add(keyset position: TodoPosition, _ op: String) {
        let range = op.hasPrefix("<") ? "<=" : ">="
        let strict = String(op.prefix(1))
        add(
            "todo.createdAt \(range) ? AND (todo.createdAt \(strict) ? OR todo.seq \(op) ?)",
            position.createdAt, position.createdAt, position.sequence
        )
    }

    var whereClause: String {
        parts.isEmpty ? "" : "WHERE " + parts.joined(separator: " AND ")
    }
}
