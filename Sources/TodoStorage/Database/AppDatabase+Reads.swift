import Foundation
import GRDB
import TodoCore

// MARK: - Database Access: Reads

extension AppDatabase {
    /// Calls `body` with each todo the request selects, newest first, reading
    /// rows one at a time so memory stays flat however many there are.
    /// Return false from `body` to stop early.
    public func forEachTodo(_ request: TodoRequest, _ body: (ListedTodo) throws -> Bool) throws {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Self.forEachTodo(db, request, body)
            }
        }
    }

    /// The todos the request selects, newest first.
    public func fetchListed(_ request: TodoRequest) throws -> [ListedTodo] {
        var todos: [ListedTodo] = []
        try forEachTodo(request) { todos.append($0); return true }
        return todos
    }

    /// The todos whose IDs start with each prefix, in order.
    public func resolveListed(idPrefixes: [String]) throws -> [ListedTodo] {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try idPrefixes.map { try Self.resolve(db, idPrefix: $0) }
            }
        }
    }

    /// The length of the longest short ID among all todos, for aligning columns.
    public func widestShortID() throws -> Int {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try Int.fetchOne(db, sql: "SELECT max(idPrefixLength) FROM todo") ?? TodoID.minimumPrefixLength
            }
        }
    }

    /// How many todos `todo list` and `todo list --done` list at `now`, and
    /// how many pending ones wait (`selectCounts`).
    public func counts(at now: Date, in timeZone: TimeZone) throws -> TodoCounts {
        guard case let (condition, arguments)? = Self.scheduleCondition(.current(at: now, in: timeZone)),
              case let (waiting, waitingArguments)? = Self.scheduleCondition(.waiting(at: now, in: timeZone))
        else { preconditionFailure("a current or waiting schedule always has a condition") }
        return try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                // All todos from the smallest index, done ones from their range
                // of the isDone index: at a million todos, half the time of
                // counting both ranges.
                let row = try Row.fetchOne(db, sql: """
                    SELECT (SELECT count(*) FROM todo), (SELECT count(*) FROM todo WHERE isDone = 1)
                    """)
                var counts = TodoCounts(pending: (row?[0] ?? 0) - (row?[1] ?? 0), done: row?[1] ?? 0)
                // Less the hidden ones, from the index of the few todos with a wait or until date.
                let hidden = try Row.fetchCursor(db, sql: """
                    SELECT isDone, \(waiting), count(*) FROM todo INDEXED BY todo_with_wait_or_until
                        WHERE (wait IS NOT NULL OR until IS NOT NULL) AND NOT \(condition) GROUP BY 1, 2
                    """, arguments: waitingArguments + arguments)
                while let row = try hidden.next() {
                    let (isDone, isWaiting, count): (Bool, Bool, Int) = (row[0], row[1], row[2])
                    if isDone { counts.done -= count } else { counts.pending -= count }
                    if isWaiting, !isDone { counts.waiting += count }
                }
                return counts
            }
        }
    }

    /// Each project's own count of pending todos at `now`, those past their
    /// until date left out (`selectPendingProjectCounts`), from the project
    /// index's pending run.
    public func pendingProjectCounts(now: Date, timeZone: TimeZone) throws -> [String: Int] {
        let today = CalendarDay(now, in: timeZone).description, moment = ISO8601.string(from: now.roundedToMilliseconds)
        return try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                var counts: [String: Int] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT project, count(*) FROM todo WHERE isDone = 0 AND project IS NOT NULL
                        AND (todo.until IS NULL OR \(Self.untilNotPast))
                    GROUP BY project
                    """, arguments: [today, moment])
                while let row = try rows.next() { counts[row[0]] = row[1] }
                return counts
            }
        }
    }

    /// For `--project work` where no todo is in `work` or under it: the
    /// projects that are, but for case (`Work`, `WORK.home`'s `WORK`), to
    /// say so. Empty when the project exists as typed.
    public func projectsDifferingInCase(from project: String) throws -> [String] {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                let (condition, arguments) = Self.projectCondition(.within(project))
                // One range of the project index for each of done and pending.
                let exists = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM todo WHERE isDone IN (0, 1) AND \(condition))", arguments: arguments
                ) ?? false
                guard !exists else { return [] }
                // Only when nothing matched: a scan, on a list about to be empty.
                let lower = project.lowercased(), child = lower + "."
                let found = try String.fetchAll(db, sql: """
                    SELECT DISTINCT project FROM todo WHERE project IS NOT NULL
                        AND (lower(project) = ? OR substr(lower(project), 1, ?) = ?)
                    """, arguments: [lower, child.unicodeScalars.count, child])
                return Array(Set(found.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(project.unicodeScalars.count))) })).sorted()
            }
        }
    }

    /// The value of a stored setting, or nil.
    public func setting(_ key: String) throws -> String? {
        try StorageError.wrap(path: path) {
            try dbWriter.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }
}

// MARK: - Queries

extension AppDatabase {
    /// Runs the SQL for `request` and hands over the rows that really match.
    static func forEachTodo(_ db: Database, _ request: TodoRequest, _ body: (ListedTodo) throws -> Bool) throws {
        var remaining = request.limit ?? Int.max
        for statement in listSQL(request) where remaining > 0 {
            let cursor = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
            while remaining > 0, let row = try cursor.next() {
                guard let item = TodoItem(row: row), item.matches(request.query) else { continue }
                remaining -= 1
                guard try body(ListedTodo(item: item, idPrefixLength: row[6])) else { return }
            }
        }
    }

    /// One statement of a list, run after the one before it.
    struct ListStatement {
        var sql: String
        var arguments: StatementArguments
    }

    /// The SQL that lists the todos `request` selects, in its order: one
    /// statement, or two run one after the other (`--sort due`: the todos
    /// with a due date from its index, then those without, newest first; one
    /// statement would sort every todo).
    ///
    /// The search runs inside SQLite on `searchText` (`TodoItem.searchKey`):
    /// from the trigram index when the query has three characters or more,
    /// else by scanning. That finds every todo `TodoItem.matches` accepts and
    /// possibly a few more (a letter inside a composed character), so callers
    /// confirm each candidate in Swift; only candidates are ever loaded, and
    /// a limit is applied in SQL only when there is nothing to confirm.
    ///
    /// The planning filters follow `selectRequestedTodos`: `--tag` walks its
    /// tag's run of `todoTag` (already newest first), `--due` a range of the
    /// due index, `--priority` the priority index.
    static func listSQL(_ request: TodoRequest, selection: String = TodoItem.selection, among ids: String? = nil) -> [ListStatement] {
        // A query made only of combining marks has an empty key: every todo is
        // a candidate then, and Swift decides.
        let key = TodoItem.searchKey(request.query)
        if !key.isEmpty, request.status == .all, Self.trigrams(key).isEmpty, !request.usesPlanningFields, ids == nil {
            return [scanBothStatusesSQL(key: key, schedule: scheduleCondition(request.schedule), selection: selection)]
        }
        let filtered = filteredSource(request, key: key, among: ids)
        let (source, conditions, arguments, newestFirst) = (
            filtered.source, filtered.conditions, filtered.arguments, filtered.newestFirst
        )
        let limit = request.query.isEmpty ? request.limit.map { " LIMIT \(max(0, $0))" } ?? "" : ""
        func statement(_ extra: String?, orderBy order: String) -> ListStatement {
            let all = conditions + (extra.map { [$0] } ?? [])
            let filter = all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
            return ListStatement(
                sql: "SELECT \(selection) FROM \(source)\(filter) ORDER BY \(order)\(limit)",
                arguments: arguments
            )
        }
        let field: String
        switch request.sort {
        case .created: return [statement(nil, orderBy: newestFirst)]
        case .due: field = "todo.due"
        case .priority: field = "todo.priority"
        }
        let withField = statement("\(field) IS NOT NULL", orderBy: "\(field), todo.createdAt DESC, todo.seq DESC")
        // A filter on the field itself leaves no todo without it, or (`none`) only those.
        let (filtersField, keepsOnlyUnset) = request.sort == .due
            ? (request.due != nil, request.due == .unset)
            : (request.priority != nil, request.priority == .unset)
        if keepsOnlyUnset { return [statement(nil, orderBy: newestFirst)] }
        return filtersField ? [withField] : [withField, statement("\(field) IS NULL", orderBy: newestFirst)]
    }

    /// A short query over every todo: each status's run of the covering
    /// index `(isDone, createdAt, seq, searchText)`, already in list order,
    /// merged by SQLite (`MERGE (UNION ALL)`). One walk of the createdAt index
    /// would read each todo's row from the table for its search text: at a
    /// million todos, 1.8 s against 0.35 s.
    private static func scanBothStatusesSQL(key: String, schedule: (String, StatementArguments)?, selection: String) -> ListStatement {
        let side = "SELECT \(selection), todo.seq AS seq FROM todo WHERE todo.isDone = ? AND \(containsKeyCondition)"
            + (schedule.map { " AND " + $0.0 } ?? "")
        let pattern = likePattern(containing: key)
        var arguments: StatementArguments = [false, pattern]
        if let schedule { _ = arguments.append(contentsOf: schedule.1) }
        _ = arguments.append(contentsOf: [true, pattern])
        if let schedule { _ = arguments.append(contentsOf: schedule.1) }
        return ListStatement(sql: "\(side) UNION ALL \(side) ORDER BY createdAt DESC, seq DESC", arguments: arguments)
    }

    /// The one todo whose ID starts with `prefix`.
    static func resolve(_ db: Database, idPrefix prefix: String) throws -> ListedTodo {
        // IDs hold only 0-9, a-f and '-', all below '~': [prefix, prefix~) is every ID with that prefix.
        let statement = try db.cachedStatement(
            sql: "SELECT \(TodoItem.selection) FROM todo WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"
        )
        let rows = try Row.fetchAll(statement, arguments: [prefix, prefix + "~", IDMatch.listed + 1])
        guard let row = rows.first, let item = TodoItem(row: row) else {
            throw TodoError.notFound(prefix)
        }
        if rows.count > 1 {
            let count = rows.count <= IDMatch.listed ? rows.count : try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM todo WHERE id >= ? AND id < ?",
                arguments: [prefix, prefix + "~"]
            ) ?? rows.count
            let candidates = rows.prefix(IDMatch.listed).compactMap { row in
                TodoItem(row: row).map { ListedTodo(item: $0, idPrefixLength: row[6]) }
            }
            throw TodoError.ambiguousID(
                prefix, matches: count,
                candidates: candidates.map { IDMatch(shortID: $0.shortID, text: $0.item.text) }
            )
        }
        return ListedTodo(item: item, idPrefixLength: row[6])
    }

    /// The distinct runs of three Unicode scalars in `key`, as the trigram
    /// tokenizer splits text.
    static func trigrams(_ key: String) -> [String] {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        var seen = Set<String>()
        var result: [String] = []
        for start in 0...(scalars.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            if seen.insert(text).inserted {
                result.append(text)
            }
        }
        return result
    }

    /// Keeps the todos whose search text contains a key, given
    /// `likePattern(containing:)`: a pre-filter, as every candidate is then
    /// confirmed by `TodoItem.matches`. LIKE scans about twice as fast as
    /// `instr`, which counts characters to answer a position; its folding of
    /// ASCII case changes nothing, as key and search text are both lowercased.
    static let containsKeyCondition = #"todo.searchText LIKE ? ESCAPE '\'"#

    /// The LIKE pattern of text containing `key`: its `%`, `_` and `\`
    /// escaped.
    static func likePattern(containing key: String) -> String {
        var pattern = "%"
        for character in key {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// An FTS5 string literal: double quotes around, inner ones doubled.
    static func quotedFTSString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
