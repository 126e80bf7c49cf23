import Foundation
import PropertyBased
import Testing
import TodoCore
import TodoSync
@testable import TodoCLI
@testable import TodoMCP

/// `TodoItem.json` writes the JSON of todos by hand (an export of 100,000 todos
/// takes two thirds of `JSONEncoder`'s time): whatever a todo holds, what it
/// writes is JSON that reads back to the same todo, with the keys in the
/// documented order; and `todo mcp`'s `TodoValue` is the same object.
@Suite("TodoJSON writes what decoders read back")
struct TodoJSONTests {
    static let pieces = ["milk", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "é", "😀", "/", "{", "]", " "]
    static let text = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 1...6).map { $0.joined() }
    static let keys = ["id", "text", "done", "createdAt", "updatedAt", "completedAt", "due", "priority", "tags", "note", "repeat"]

    @Test func everyTodoReadsBackAndTodoValueIsTheSameObject() async {
        await propertyCheck(count: 500, input: Self.text, Self.text.array(of: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...1)) { text, tags, planning, doneFlag in
            let done = doneFlag == 1
            var item = TodoItem(
                id: UUID(), text: text, isDone: done, createdAt: Date(millisecondsSince1970: 1_764_000_000_123),
                completedAt: done ? Date(millisecondsSince1970: 1_764_000_100_456) : nil,
                due: planning > 0 ? .day(CalendarDay(year: 2031, month: 5, day: planning)!) : nil,
                priority: planning == 2 ? .high : nil, tags: tags, note: planning == 3 ? text : nil
            )
            if planning == 1 { item.recurrence = TodoRepeat(parsing: "2w") }
            let written = item.json(absentParents: [])
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                guard let date = ISO8601.date(from: text) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: text)) }
                return date
            }
            let read = try? decoder.decode(TodoItem.self, from: Data(written.utf8))
            #expect(read?.text == item.text && read?.tags == item.tags && read?.note == item.note, "\(written)")
            #expect(read?.due == item.due && read?.isDone == item.isDone && read?.recurrence == item.recurrence, "\(written)")
            #expect(read?.createdAt == item.createdAt && read?.completedAt == item.completedAt, "\(written)")
            let object = try? JSONValue.parse(Array(written.utf8))
            #expect(object == TodoValue.value(item, absentParents: []), "\(written)")
            let order = Self.keys.compactMap { key in written.range(of: "\"\(key)\":")?.lowerBound }
            #expect(order == order.sorted() && order.count == Self.keys.count, "\(written)")
        }
    }
}
