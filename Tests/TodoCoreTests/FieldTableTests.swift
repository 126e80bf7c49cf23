import Foundation
import PropertyBased
import Testing
import TodoCore

/// The codecs made from the field table (`TodoField`) against what they
/// replace: a todo's JSON read back by Foundation is the todo, every field's
/// value in JSON's form sets the field it came from, and `JSONText`'s whole-
/// text shortcut writes what escaping scalar by scalar writes.
struct FieldTableTests {
    /// Texts with what JSON must escape, and without.
    static let pieces = ["milk", "\"", "\\", "\n", "\t", "\u{1}", "\u{1f}", "é", "日本", "🥛", " ", "/", "\u{7f}", "a\"b"]

    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func text(_ random: inout Generator) -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// A todo with each field set or not, at random.
    static func item(seed: Int) -> TodoItem {
        var random = Generator(state: UInt64(seed))
        func maybe<Value>(_ value: @autoclosure () -> Value) -> Value? { Bool.random(using: &random) ? value() : nil }
        let day = TodoDue.day(CalendarDay(daysSince1970: 20_000 + Int.random(in: 0...400, using: &random)))
        let moment = TodoDue.moment(Date(millisecondsSince1970: 1_790_000_000_000 + Int64.random(in: 0...1_000_000, using: &random)))
        var item = TodoItem(
            id: UUID(), text: text(&random), isDone: Bool.random(using: &random),
            createdAt: Date(millisecondsSince1970: 1_700_000_000_000), updatedAt: Date(millisecondsSince1970: 1_700_000_001_000),
            due: maybe(Bool.random(using: &random) ? day : moment), priority: maybe(TodoPriority.allCases.randomElement(using: &random)!),
            tags: maybe(["home", "work", "x-1"].filter { _ in Bool.random(using: &random) }) ?? [],
            note: maybe(text(&random)), project: maybe("home.garden"),
            parent: maybe(UUID()), blockedBy: maybe([UUID(), UUID()]) ?? []
        )
        if item.due != nil, Bool.random(using: &random) { item.recurrence = TodoRepeat(parsing: "weekly") }
        for field in TodoField.allCases where field.kind == .date && field != .due && Bool.random(using: &random) {
            item.set(field, to: .text(day.text))
        }
        if item.isDone { item.completedAt = item.updatedAt }
        return item
    }

    @Test func aTodosJSONReadsBackAsTheTodo() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let item = Self.item(seed: seed)
            let json = item.json()
            let read = try? TodoItem.jsonDecoder().decode(TodoItem.self, from: Data(json.utf8))
            #expect(read == item, "\(json)")
            // Every field under its key, in the table's order.
            let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
            #expect(TodoField.allCases.allSatisfy { object?[$0.key] != nil })
        }
    }

    @Test func eachFieldsValueSetsTheFieldItCameFrom() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max), Gen.int(in: 0...Int.max)) { first, second in
            let from = Self.item(seed: first)
            var into = Self.item(seed: second)
            for field in TodoField.allCases {
                let taken = into.set(field, to: from[value: field])
                #expect(taken)
                #expect(into.holdsSame(field, as: from), "\(field)")
            }
        }
    }

    @Test func aValueNoFieldOfThatKindHoldsIsRefusedAndLeavesItEmpty() {
        var item = Self.item(seed: 1)
        let refused = [
            item.set(.due, to: .text("someday soon")), item.set(.parent, to: .text("not an id")),
            item.set(.note, to: .flag(true)), item.set(.blockedBy, to: .list(["x"])),
        ]
        #expect(refused == [false, false, false, false])
        #expect(item.due == nil && item.parent == nil && item.note == nil && item.blockedBy.isEmpty)
    }

    @Test func wholeTextsAreWrittenAsEscapingScalarByScalarWrites() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var random = Generator(state: UInt64(seed))
            let text = Self.text(&random)
            let quoted = JSONText.quoted(text)
            #expect(quoted == Self.escapedScalarByScalar(text))
            #expect((try? JSONDecoder().decode(String.self, from: Data(quoted.utf8))) == text)
        }
    }

    /// RFC 8259's escapes, one scalar at a time: what `JSONText` wrote before its shortcut.
    static func escapedScalarByScalar(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
