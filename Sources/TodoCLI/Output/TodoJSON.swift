import Foundation
import TodoCore

/// The JSON form of todos as the command line writes it (`TodoItem.json`):
/// arrays of them streamed, one per line, and the decoder that reads them back.
enum TodoJSON {
    /// Writes a JSON array, one todo per line, as `forEach` produces them.
    static func writeArray(
        to output: OutputBuffer, absentParents: Set<UUID>, _ forEach: ((TodoItem) -> Void) throws -> Void
    ) rethrows {
        var array = ArrayWriter(to: output, absentParents: absentParents)
        try forEach { array.write($0) }
        array.finish()
    }

    /// A JSON array of todos written as they come, one per line.
    struct ArrayWriter {
        let output: OutputBuffer
        let absentParents: Set<UUID>
        private var isEmpty = true

        init(to output: OutputBuffer, absentParents: Set<UUID>) {
            self.output = output
            self.absentParents = absentParents
            output.write("[")
        }

        mutating func write(_ item: TodoItem) {
            output.write(isEmpty ? "\n" : ",\n")
            isEmpty = false
            output.write(item.json(absentParents: absentParents))
        }

        func finish() {
            output.write(isEmpty ? "]\n" : "\n]\n")
        }
    }

    /// A decoder for the JSON form (`TodoItem.jsonDecoder`).
    static func decoder() -> JSONDecoder { TodoItem.jsonDecoder() }
}
