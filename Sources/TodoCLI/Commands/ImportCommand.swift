import ArgumentParser
import Foundation
import TodoCore
import TodoInterchange

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add todos from a JSON export, Taskwarrior or todo.txt.",
        discussion: """
            Everything is imported in one transaction: if any todo is malformed, nothing \
            is imported, and the error names the line (FILE:LINE: why). todo undo takes \
            the whole import back.

            --from json (the default) reads a JSON array of todos, as export writes it \
            (id, text, createdAt required; done, updatedAt, completedAt, due, priority, \
            tags, note, repeat optional).

            Importing again merges: a todo here with the file's ID takes only the fields \
            the file changed since the last import of it, so an edit made here since is \
            kept. A field changed on both sides is a conflict: the later edit wins, and \
            the conflict is said. A todo never imported before takes each field that \
            differs from the file if the file's is later. --dry-run lists what would be \
            added and changed (before → after) and writes nothing.

            --from taskwarrior reads task export output. Each task keeps its uuid, so \
            importing again changes only what changed since. Pending and waiting tasks \
            are todos, completed ones done; deleted tasks are left out (an import never \
            deletes). Priority H/M/L is high/medium/low; the project (home.garden) and \
            each tag become tags; annotations, with their dates, make the note; a due at \
            local midnight is that date, else a date and time. A recurring task's \
            instances repeat by its recur (daily, weekly, 2wks, monthly, quarterly, 1y…); \
            its template is left out; a recur that cannot be a repeat (weekdays) is kept \
            in the note.

            --from todotxt reads todo.txt lines: x and a completion date is done, (A) (B) \
            (C) are high, medium, low priority ((D) to (Z): low), then a creation date; \
            +project becomes the tag project, @context the tag @context, due:YYYY-MM-DD \
            the due date; other key:value pairs stay in the text. Each todo's ID is \
            derived from its line, so importing the same file again adds nothing, and a \
            todo imported before is kept as it is here.

            Examples:
              todo import todos.json
              task export | todo import --from taskwarrior --dry-run -
              todo export --database old.sqlite | todo import -
              task export | todo import --from taskwarrior -
              todo import --from todotxt ~/todo.txt
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The file's format.", valueName: "format"))
    var from: ImportFormat = .json

    @Flag(help: "List what would be added and changed, and write nothing.")
    var dryRun = false

    @Argument(help: "The file to read, or - for standard input.")
    var file: String

    mutating func run() async throws {
        let data = try Self.data(file)
        let items: [TodoItem]
        let name = file == "-" ? "<stdin>" : file
        do {
            switch from {
            case .json:
                items = try Self.read(data, file: file)
            case .taskwarrior:
                items = try Taskwarrior.read(data, timeZone: .current).todos
            case .todotxt:
                if let first = data.first(where: { !" \t\r\n".utf8.contains($0) }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
                    throw ImportError(
                        "\(name) is JSON, not todo.txt: import a todo export with --from json, or task export output with --from taskwarrior; nothing was imported"
                    )
                }
                items = try TodoTxt.todos(from: String(decoding: data, as: UTF8.self), timeZone: .current, now: Date())
            }
        } catch let error as InterchangeError {
            throw ImportError("\(name):\(error); nothing was imported")
        }
        try Self.checkDistinct(items, file: name)
        let db = try database.open()
        try Self.checkLinks(items, db: db, file: name)
        let summary = try db.importTodos(items, replacing: from == .todotxt ? .never : .merging, dryRun: dryRun)
        ImportReport(summary: summary, items: items, dryRun: dryRun).write(to: OutputBuffer())
    }

    /// The bytes of a file, or of standard input for `-`.
    static func data(_ file: String) throws -> Data {
        do {
            return file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile()
                // Read as a stream, not by its size: `<(task export)` is a pipe.
                : try FileHandle(forReadingFrom: URL(fileURLWithPath: file)).readToEnd() ?? Data()
        } catch {
            throw ImportError("cannot read \(file): \((error as NSError).localizedDescription); check the path")
        }
    }

    /// Refuses a file that names one todo twice: which would win is anyone's guess.
    static func checkDistinct(_ items: [TodoItem], file: String) throws {
        var seen = Set<UUID>()
        for (index, item) in items.enumerated() where !seen.insert(item.id).inserted {
            throw ImportError("\(file): todo \(index + 1) repeats the ID \(item.idString); nothing was imported")
        }
    }

    /// Refuses a file whose subtasks or blockers, with the todos here, would
    /// make a cycle: the cycle named, nothing imported.
    static func checkLinks(_ items: [TodoItem], db: any TodoDatabase, file: String) throws {
        let linked = items.filter { $0.parent != nil || !$0.blockedBy.isEmpty }
        guard !linked.isEmpty else { return }
        let imported = Set(items.map(\.id))
        let nodes = try db.linkedTodos().filter { !imported.contains($0.id) } + linked.map(TodoLinks.Node.init)
        for relation in [TodoLinks.Relation.parent, .blockedBy] {
            guard let cycle = TodoLinks.cycle(in: nodes, relation, through: linked.map(\.id)) else { continue }
            let around = TodoLinks.described(cycle, relation) { String($0.lowercasedString.prefix(8)) }
            throw ImportError("\(file): its links make a cycle, \(around); fix the file's parent or blockedBy there; nothing was imported")
        }
    }

    /// The todos in a JSON export, checked: any problem fails the whole import.
    static func read(_ data: Data, file: String) throws -> [TodoItem] {
        let items: [TodoItem]
        do {
            items = try TodoJSON.decoder().decode([TodoItem].self, from: data)
        } catch let error as DecodingError {
            throw ImportError("\(file) is not a todo export: \(Self.describe(error)); nothing was imported")
        } catch {
            throw ImportError("\(file) is not valid JSON; nothing was imported")
        }
        var checked: [TodoItem] = []
        checked.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var item = item
            do {
                // The rules `add` and `edit` keep, for every field.
                item.text = try TodoText.validated(item.text)
                item.tags = TodoTags.normalized(try item.tags.map { tag throws(TodoFieldError) in try TodoTags.validated(tag) })
                item.note = try item.note.flatMap { note throws(TodoFieldError) in try TodoNote.validated(note) }
                if let violation = item.ruleViolation { throw violation }
            } catch {
                throw ImportError("\(file): todo \(index + 1) (\(item.idString)): \(CommandLineError.words(error)); nothing was imported")
            }
            checked.append(item)
        }
        return checked
    }

    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            guard let index = path.first?.intValue else { return "the top level" }
            let field = path.dropFirst().map(\.stringValue).joined(separator: ".")
            return "todo \(index + 1)" + (field.isEmpty ? "" : ", field '\(field)'")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(place(context.codingPath)) has no '\(key.stringValue)'"
        case let .typeMismatch(type, context):
            if context.codingPath.isEmpty {
                return "the top level should be an array of todos"
            }
            return "\(place(context.codingPath)) should be of type \(type)"
        case let .valueNotFound(_, context):
            return "\(place(context.codingPath)) is null"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                return "the JSON is malformed or truncated"
            }
            if context.codingPath.last?.stringValue == "id" {
                // Foundation's own words ("Attempted to decode UUID…") say nothing of the fix.
                return "\(place(context.codingPath)) is not a UUID such as 3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b"
            }
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// The formats `todo import --from` reads.
enum ImportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case json, taskwarrior, todotxt
}

/// A problem with an import file, already worded for the user.
struct ImportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
