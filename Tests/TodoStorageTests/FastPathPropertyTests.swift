import Foundation
import PropertyBased
import Testing
@testable import TodoCore
@testable import TodoStorage

/// Imports and syncs read and check every todo through hand-written fast paths
/// for the common case; each must give exactly what the general path gives.
@Suite("Fast paths equal the general paths")
struct FastPathPropertyTests {
    /// Text built to sit on both sides of each fast path's edges: ASCII and
    /// Latin letters, spaces of both kinds at either end, controls, line
    /// breaks, marks, and scalars past U+024F.
    static let alphabet: [Character] = [
        "a", "Z", "0", " ", "~", "\u{7F}", "\t", "\n", "\r\n", "\u{85}", "\u{A0}", "é", "ß", "ɏ", "ɐ",
        "\u{301}", "\u{2028}", "\u{2029}", "\u{200B}", "Σ", "😀", "İ", "\u{0}",
    ]
    static let text = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.string(of: 0...10)

    @Test func plainTextIsValidatedAsTheUnicodeRulesSay() async {
        await propertyCheck(count: 500, input: Self.text) { text in
            let fast = Result { () throws(TodoError) in try TodoText.validated(text) }
            let general = Result { () throws(TodoError) in try TodoText.validatedByUnicodeRules(text) }
            #expect(fast == general, "\(text.debugDescription)")
            if TodoText.isPlainLine(text) {
                #expect(general == .success(text), "\(text.debugDescription)")
            }
        }
        #expect(TodoText.isPlainLine("Crème brûlée"))
        #expect(!TodoText.isPlainLine("\u{A0}Crème"))
        #expect(!TodoText.isPlainLine(String(repeating: "é", count: TodoText.maximumLength)))
    }

    @Test func uuidTextIsFormattedAndParsedAsFoundationDoes() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.lowercasedString == id.uuidString.lowercased())
            #expect(UUID(parsing: id.uuidString) == id)
            #expect(UUID(parsing: id.lowercasedString) == id)
        }
        let odd = [
            "", "not a uuid", "3F2A1B2C-6F0E-4C1A-9D0B-2F1E3C4D5A6", "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6g",
            "3f2a1b2c+6f0e-4c1a-9d0b-2f1e3c4d5a6b", "3f2a1b2c6f0e4c1a9d0b2f1e3c4d5a6b", " 3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6",
            "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6b ", "3f2a1b2c-6f0e-4c1a-9d0b-2f1e3c4d5a6é",
        ]
        for text in odd {
            #expect(UUID(parsing: text) == UUID(uuidString: text), "\(text.debugDescription)")
        }
    }

    @Test func canonicalDatesAreReadAsFoundationReadsThem() async {
        // From 1600 to 9999, to the millisecond.
        let moments = Gen.int(in: -11_676_096_000_000...253_402_300_799_999)
        await propertyCheck(count: 500, input: moments) { milliseconds in
            let text = ISO8601.string(fromMilliseconds: Int64(milliseconds))
            let (days, msOfDay) = Int64(milliseconds).quotientAndRemainder(dividingBy: 86_400_000)
            let (day, ms) = msOfDay < 0 ? (days - 1, msOfDay + 86_400_000) : (days, msOfDay)
            #expect(text == ISO8601.paddedString(CalendarDay(daysSince1970: Int(day)), ms))
            #expect(ISO8601.canonicalMilliseconds(text) == Int64(milliseconds), "\(text)")
            #expect(ISO8601.date(from: text) == ISO8601.dateByFormatStyle(text), "\(text)")
        }
        let odd = [
            "2024-02-29T12:00:00.000Z", "2023-02-29T12:00:00.000Z", "2024-04-31T00:00:00.000Z", "2024-13-01T00:00:00.000Z",
            "2024-01-01T24:00:00.000Z", "2024-01-01T23:60:00.000Z", "2024-01-01T23:59:60.000Z", "1599-12-31T23:59:59.999Z",
            "2024-01-01T00:00:00.000+01:00", "2024-01-01T00:00:00Z", "2024-01-01 00:00:00.000Z", "2024-1-01T00:00:00.000Z",
        ]
        for text in odd {
            #expect(ISO8601.date(from: text) == ISO8601.dateByFormatStyle(text), "\(text)")
        }
    }
}

/// A todo's tags, written to their column by `TagList.encode` (by hand),
/// are read back as they were, whatever characters they hold.
@Suite("Tags are read back as written")
struct TagListPropertyTests {
    static let pieces = ["[", "]", "\"", ",", " ", "\\", "\\\"", "\\n", "\u{1}", "\t", "home", "é", "😀", "[\"", "\"]", "\",\""]

    @Test func encodedTagsAreReadBack() async {
        let tag = Gen.int(in: 0...(Self.pieces.count - 1)).map { Self.pieces[$0] }.array(of: 1...3).map { $0.joined() }
        await propertyCheck(count: 1_000, input: tag.array(of: 0...4)) { tags in
            let text = TagList.encode(tags) ?? "[]"
            #expect(TagList.decode(text) == tags, "\(text.debugDescription)")
        }
        #expect(TagList.decode("not json") == [] && TagList.decode(#"{"a":1}"#) == [])
    }
}
