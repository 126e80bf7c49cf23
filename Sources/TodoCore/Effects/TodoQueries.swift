import Foundation

/// The front ends' reads, and the few writes that change no todo: the query
/// side beside `TodoLogic` (the command side, which drives a view's state).
/// Storage answers them at once, without a hop between tasks: these are the
/// fast paths of `todo list`, `next`, `projects` and `export`, each with
/// its selector twin in the core where one serves the view
/// (`selectFilteredTodos`, `selectNextTodos`), held equal by tests.
public protocol TodoQueries: Sendable {
    /// Opened to read only: a command that writes says so at once (`checkWritable`).
    var isReadOnly: Bool { get }

    /// Throws the storage's error for a store opened to read only.
    func checkWritable() throws

    /// Closes the store, its files left whole; nothing is read or written after.
    func close() throws

    /// The todos whose IDs start with each prefix, in the same order; throws
    /// `TodoError.notFound` or `.ambiguousID` as `TodoStorage.resolve` does.
    func resolveListed(idPrefixes: [String]) throws -> [ListedTodo]

    /// The todos `request` selects, in its order.
    func fetchListed(_ request: TodoRequest) throws -> [ListedTodo]

    /// Each todo `request` selects, in its order, as storage holds it
    /// (`RawTodoRow`): `todo list` prints a million without decoding one.
    func forEachRawTodo(_ request: TodoRequest, _ body: (RawTodoRow) throws -> Void) throws

    /// Which of `ids` `request` selects, whatever its limit.
    func listedIDs(_ request: TodoRequest, among ids: [UUID]) throws -> Set<UUID>

    /// The short IDs of those of `ids` that are pending.
    func pendingShortIDs(among ids: [UUID]) throws -> [UUID: String]

    /// The links of every todo with a parent or blockers (`TodoLinks`).
    func linkedTodos() throws -> [TodoLinks.Node]

    /// Whether any todo has a parent or blockers: most lists have none.
    func hasLinkedTodos() throws -> Bool

    /// The todos `ids` names that exist, with their short IDs.
    func listedTodos(withIDs ids: [UUID]) throws -> [ListedTodo]

    /// The parents `items` name that no longer exist.
    func absentParents(of items: [TodoItem]) throws -> Set<UUID>

    /// Every parent a todo names that no longer exists.
    func absentParents() throws -> Set<UUID>

    /// The longest short ID of any todo: the width of a list's ID column.
    func widestShortID() throws -> Int

    /// Projects that differ from `project` only in case (`Home` for `home`).
    func projectsDifferingInCase(from project: String) throws -> [String]

    /// How many todos each project holds that `todo list` lists now.
    func pendingProjectCounts(now: Date, timeZone: TimeZone) throws -> [String: Int]

    /// Each todo `request` ranks, most urgent first, as `selectNextTodos`
    /// ranks them; `body` returns false to stop.
    func forEachNext(_ request: NextRequest, _ body: (RankedTodo) throws -> Bool) throws

    /// The saved contexts, and the active one.
    func savedContexts() throws -> (all: [TodoContext], active: TodoContext?)

    /// Saves `contexts`, with `active` (a name among them, or nil) the active one.
    func saveContexts(_ contexts: [TodoContext], active: String?) throws

    /// Stores many todos in one transaction, as `replacing` says for a todo
    /// here already; a dry run writes nothing (see `ImportSummary`).
    func importTodos(_ items: [TodoItem], replacing: ImportReplacing, dryRun: Bool) throws -> ImportSummary
}

/// What a front end holds: storage's side for the logic and the query side.
public typealias TodoDatabase = TodoQueries & TodoStorage

/// A listed todo as SQLite holds it, not decoded. Its buffers point into
/// SQLite's memory and are valid only during the call that receives them.
public struct RawTodoRow {
    /// The UUID text, lowercase with dashes.
    public let id: UnsafeBufferPointer<UInt8>
    /// The text, UTF-8.
    public let text: UnsafeBufferPointer<UInt8>
    public let isDone: Bool
    public let idPrefixLength: Int
    /// The stored form of `TodoDue` (`2026-12-01` or `2026-12-01T13:30:00.000Z`); empty for none.
    public let due: UnsafeBufferPointer<UInt8>
    /// `TodoPriority.rank`, 1 high to 3 low; 0 for none.
    public let priority: Int
    /// The tags as stored: a JSON array of strings (`TagList`); empty for none.
    public let tags: UnsafeBufferPointer<UInt8>
    /// The project (`home.garden`), UTF-8; empty for none.
    public let project: UnsafeBufferPointer<UInt8>
    /// The stored forms of the wait and until dates, as `due`; empty for none.
    public let wait: UnsafeBufferPointer<UInt8>
    public let until: UnsafeBufferPointer<UInt8>
    /// Started (`todo start`): being worked on.
    public let isStarted: Bool

    public init(
        id: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>, isDone: Bool, idPrefixLength: Int,
        due: UnsafeBufferPointer<UInt8>, priority: Int, tags: UnsafeBufferPointer<UInt8>,
        project: UnsafeBufferPointer<UInt8>, wait: UnsafeBufferPointer<UInt8>, until: UnsafeBufferPointer<UInt8>,
        isStarted: Bool = false
    ) {
        self.isStarted = isStarted
        self.id = id
        self.text = text
        self.isDone = isDone
        self.idPrefixLength = idPrefixLength
        self.due = due
        self.priority = priority
        self.tags = tags
        self.project = project
        self.wait = wait
        self.until = until
    }
}

/// Tags as the `tags` column holds them: a JSON array of strings, which the
/// triggers that keep `todoTag` read with `json_each`; NULL for none.
public enum TagList {
    public static func encode(_ tags: [String]) -> String? {
        guard !tags.isEmpty else { return nil }
        var out = "["
        for (index, tag) in tags.enumerated() {
            if index > 0 { out += "," }
            out += "\""
            for scalar in tag.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            out += "\""
        }
        return out + "]"
    }

    /// The tags in a column value; what cannot be read as a JSON array of
    /// strings is no tags. Foundation's decoder: a hand-written reader of
    /// what `encode` writes moved no figure (export of 100,000 todos 6%,
    /// import, a first sync and a push none; Docs/architecture.md, "How it stays fast").
    public static func decode(_ text: String) -> [String] {
        guard let data = text.data(using: .utf8),
              let tags = try? JSONDecoder().decode([String].self, from: data) else { return [] }
        return tags
    }
}
