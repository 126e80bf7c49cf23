import ArgumentParser
import Foundation
import TodoCore

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add todos from a JSON file, as written by export.",
        discussion: """
            Reads a JSON array of todos (id, text, createdAt required; done, updatedAt, \
            completedAt optional). Everything is imported in one transaction: if any \
            todo is malformed, nothing is imported. A todo whose ID exists already \
            replaces it only if its updatedAt is later.

            Examples:
              todo import todos.json
              todo export --database old.sqlite | todo import -
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The JSON file to read, or - for standard input.")
    var file: String

    mutating func run() async throws {
        let items = try Self.read(file)
        let db = try database.open()
        let summary = try db.importTodos(items)
        let out = OutputBuffer()
        out.write("Imported \(summary.inserted) new todo\(summary.inserted == 1 ? "" : "s")")
        out.write(", updated \(summary.updated), kept \(summary.unchanged) unchanged\n")
    }

    /// The todos in a file, checked: any problem fails the whole import.
    static func read(_ file: String) throws -> [TodoItem] {
        let data: Data
        do {
            data = file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ImportError("cannot read \(file): \((error as NSError).localizedDescription); check the path")
        }
        let items: [TodoItem]
        do {
            items = try TodoJSON.decoder().decode([TodoItem].self, from: data)
        } catch let error as DecodingError {
            throw ImportError("\(file) is not a todo export: \(Self.describe(error)); nothing was imported")
        } catch {
            throw ImportError("\(file) is not valid JSON; nothing was imported")
        }
        var seen = Set<UUID>()
        var checked: [TodoItem] = []
        checked.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var item = item
            do {
                item.text = try TodoText.validated(item.text)
            } catch {
                throw ImportError("\(file): todo \(index + 1) (\(item.idString)): \(error); nothing was imported")
            }
            guard seen.insert(item.id).inserted else {
                throw ImportError("\(file): todo \(index + 1) repeats the ID \(item.idString); nothing was imported")
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

/// A problem with an import file, already worded for the user.
struct ImportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
