import Foundation
import Testing
import TodoCore

/// The fast confirmation of search candidates answers as `matches` does.
struct PreparedQueryTests {
    /// Letters chosen for their traps: accents precomposed and combining,
    /// İ (two scalars in lowercase), the Kelvin sign, ß, a titlecase digraph,
    /// emoji, and a line break pair.
    static let alphabet: [String] = [
        "a", "b", "e", "E", "é", "É", "e\u{301}", "\u{301}", "ß", "İ", "i", "I", "k", "K", "\u{212A}",
        "ÿ", "Ÿ", "ǅ", "ǆ", "Ǆ", " ", "-", "%", "_", "😀", "日", "ø", "Ø", "\r", "\n", "Ⅻ",
    ]

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func text(maxLength: Int) -> String {
            (0..<next(maxLength + 1)).map { _ in PreparedQueryTests.alphabet[next(PreparedQueryTests.alphabet.count)] }.joined()
        }
    }

    @Test(arguments: 1...8)
    func answersAsMatchesDoes(seed: Int) {
        var random = Generator(state: UInt64(seed))
        for _ in 0..<4000 {
            let query = random.text(maxLength: 3)
            let text = random.text(maxLength: 12)
            #expect(PreparedQuery(query).matches(text) == TodoItem.text(text, matches: query),
                    "text \(text.unicodeScalars.map { String($0.value, radix: 16) }) query \(query.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func latinTextIsSearchedByItsScalars() {
        #expect(PreparedQuery("ÉC").matches("Crème brûlée à l'école"))
        #expect(PreparedQuery(" b").matches("Straße bank"))
        #expect(!PreparedQuery("e").matches("Écol"))
        #expect(PreparedQuery("").matches("anything"))
    }
}
